import { canonicalJson } from './canonical.ts';
import type { Kyma, KymaModule, ModuleStatus } from './kyma.ts';
import { maintenanceRequired, WAITING_MESSAGE } from './maintenance.ts';
import { restrictionProblem } from './visibility.ts';
import {
  desiredChannel,
  downgradeProblem,
  followedChannel,
  lookup,
  trackingOf,
  visibilityProblem,
  wantedModules,
  type Observed,
} from './resolution.ts';

/** PURE. The resolution part of `status.modules[]` for every module in the Kyma spec; a `version` pins a module's
 * template (channel `none`) and a downgrade is refused unless `allowDowngradeTo` names it (ADR 38). Modules no longer
 * in spec get no entry here (theirs live on while aggregate-status reports the Manifest being removed). */
export function resolveModules(observed: Observed): ModuleStatus[] {
  return wantedModules(observed.kyma).map((module) => resolveModule(observed, module));
}

function resolveModule(observed: Observed, module: KymaModule): ModuleStatus {
  const entry = resolveOne(observed, module);
  const settings = {
    ...(module.customResourcePolicy && module.customResourcePolicy !== 'CreateAndDelete'
      ? { customResourcePolicy: module.customResourcePolicy }
      : {}),
    ...(module.managed === false ? { managed: false } : {}),
    ...(module.allowCrdPrune?.length ? { allowCrdPrune: [...module.allowCrdPrune].sort() } : {}),
    ...(isPinned(module) ? { pinned: true } : {}),
    ...otherChannelFollowed(observed.kyma, module, entry),
  };
  return entry.resolution ? { ...entry, resolution: { ...entry.resolution, ...settings } } : entry;
}

/** The channel resolution followed, recorded when the entry keeps another one (a refused downgrade or a maintenance
 * wait keep the installed channel, as upstream): the release spread compares the channel's version with what this
 * resolution saw, so such an entry does not look as if it waited for a release at every tick. */
function otherChannelFollowed(kyma: Kyma, module: KymaModule, entry: ModuleStatus): { channel?: string } {
  const followed = followedChannel(kyma, module);
  return entry.resolution?.version && entry.channel !== followed ? { channel: followed } : {};
}

function resolveOne(observed: Observed, module: KymaModule): ModuleStatus {
  const channel = desiredChannel(observed.kyma, module);
  const previous = observed.kyma.status?.modules?.find((m) => m.name === module.name);
  if (module.managed === false)
    return {
      name: module.name,
      channel,
      resolution: { state: 'Resolved', message: 'module is unmanaged: not resolved, not installed' },
    };
  if (channel === 'none') return failed(module, channel, previous, 'Error', 'Channel none is not allowed', false);
  if (module.version && module.channel)
    return failed(module, channel, previous, 'Error', mutuallyExclusive(module.name), false);
  // A pinned module follows no channel: its entry says `none`, as upstream's version installs (ADR 38).
  const wanted = followedChannel(observed.kyma, module);
  const found = lookup(observed, module, channel);
  if ('error' in found) {
    const keep = found.keepPrevious && Boolean(previous?.template);
    return failed(module, wanted, previous, keep ? 'Warning' : 'Error', found.error, keep, module.version);
  }
  const component = { ocmComponentName: found.componentName, fqdn: found.componentName };
  const hidden =
    visibilityProblem(observed.kyma, found.template) ||
    restrictionProblem(
      observed.kyma,
      module.name,
      observed.releaseMetas.get(module.name)?.spec?.kymaSelector,
      observed.restrictedModules ?? [],
    );
  if (hidden)
    return {
      name: module.name,
      channel: wanted,
      ...component,
      resolution: { state: 'Error', message: hidden, version: found.version, notAllowed: true },
    };
  if (found.template.spec?.mandatory) {
    return {
      name: module.name,
      channel: wanted,
      ...component,
      resolution: {
        state: 'Warning',
        message: `no templates were found: ${found.template.metadata.name} is a mandatory module and is not enabled through the Kyma spec`,
        version: found.version,
      },
    };
  }
  const downgrade = downgradeProblem(previous, found.version, wanted, module.allowDowngradeTo);
  if (downgrade)
    return failed(module, previous?.channel ?? wanted, previous, 'Warning', downgrade, true, found.version);
  const window = observed.maintenance;
  if (window && maintenanceRequired(observed.kyma, found.template, previous, found.version)) {
    if ('error' in window)
      return failed(
        module,
        wanted,
        previous,
        'Error',
        `failed to determine if maintenance window is active: ${window.error}`,
        true,
        found.version,
      );
    if (!window.open) {
      return {
        name: module.name,
        channel: previous?.channel ?? wanted,
        ...pick(previous, ['ocmComponentName', 'fqdn', 'template']),
        resolution: { state: 'Resolved', message: WAITING_MESSAGE, version: found.version, maintenance: true },
      };
    }
  }
  const artifact = observed.artifacts.get(`${found.componentName}:${found.version}`);
  if (!artifact || 'error' in artifact) {
    return failed(
      module,
      wanted,
      previous,
      'Error',
      artifact?.error ?? `descriptor of ${found.componentName}:${found.version} not read`,
      artifact?.transient === true,
      found.version,
    );
  }
  return {
    name: module.name,
    channel: wanted,
    ...component,
    template: trackingOf(found.template),
    resolution: { state: 'Resolved', version: found.version },
  };
}

/** Upstream's refusal of a module entry that sets both version and channel. */
const mutuallyExclusive = (name: string) =>
  `invalid configuration in Kyma spec.modules for module ${name}: Version and channel are mutually exclusive options`;

/** A managed module with a version and no module channel (with one, it is refused). */
const isPinned = (module: KymaModule) => Boolean(module.version) && !module.channel && module.managed !== false;

function failed(
  module: KymaModule,
  channel: string,
  previous: ModuleStatus | undefined,
  state: 'Error' | 'Warning',
  message: string,
  keepPrevious: boolean,
  version?: string,
): ModuleStatus {
  const kept =
    keepPrevious && previous
      ? pick(previous, ['ocmComponentName', 'fqdn', 'template'])
      : pick(previous, ['ocmComponentName', 'fqdn']);
  return { name: module.name, channel, ...kept, resolution: { state, message, ...(version ? { version } : {}) } };
}

function pick(status: ModuleStatus | undefined, keys: (keyof ModuleStatus)[]): Partial<ModuleStatus> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (status?.[key] !== undefined) out[key] = status[key];
  return out as Partial<ModuleStatus>;
}

/** The resolution-owned fields of an entry, for compare-before-write. */
export function resolutionPart(entry: ModuleStatus): ModuleStatus {
  const { name, channel, ocmComponentName, fqdn, template, resolution } = entry;
  return JSON.parse(JSON.stringify({ name, channel, ocmComponentName, fqdn, template, resolution })) as ModuleStatus;
}

export function sameResolution(kyma: Kyma, computed: ModuleStatus[]): boolean {
  const current = (kyma.status?.modules ?? []).filter((m) => m.resolution).map(resolutionPart);
  return canonicalJson(sortByName(current)) === canonicalJson(sortByName(computed.map(resolutionPart)));
}

const sortByName = (entries: ModuleStatus[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));
export type { Observed };
