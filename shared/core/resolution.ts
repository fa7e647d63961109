// PURE. Which template and version each module of a Kyma resolves to: its channel, a pinned version, the ModuleReleaseMeta
// or, without one, the single template that claims it. resolve-template and the release plan both decide with these.
import type { Kyma, KymaModule } from './kyma.ts';
import type { ArtifactLookup } from './descriptors.ts';
import { templateName, type ModuleReleaseMeta, type ModuleReleaseMetaSpec, type ModuleTemplate } from './templates.ts';
import { API_VERSION, DEFAULT_CHANNEL, LABEL } from './vocabulary.ts';

/** What resolve-template read for one Kyma: MRMs by module name, templates by name, and (for modules without
 * an MRM) every ModuleTemplate of the namespace. `undefined` means "looked up, not found". */
export interface Observed {
  kyma: Kyma;
  releaseMetas: Map<string, ModuleReleaseMeta | undefined>;
  templates: Map<string, ModuleTemplate | undefined>;
  allTemplates: ModuleTemplate[] | undefined;
  /** Descriptor lookups by `<componentName>:<version>`: the module content, or why it cannot be had. */
  artifacts: Map<string, ArtifactLookup>;
  /** The runtime's maintenance window now: open or not, why it cannot be told, or undefined when windows are off. */
  maintenance?: { open: boolean } | { error: string } | undefined;
  /** Upstream's restricted modules (LIFECYCLE_RESTRICTED_MODULES); absent = none. */
  restrictedModules?: readonly string[];
}

type Lookup =
  { template: ModuleTemplate; version: string; componentName: string } | { error: string; keepPrevious: boolean };

/** The modules of the Kyma spec, first occurrence wins. */
export function wantedModules(kyma: Kyma): KymaModule[] {
  const seen = new Set<string>();
  return (kyma.spec?.modules ?? []).filter((m) => !seen.has(m.name) && seen.add(m.name));
}

export const desiredChannel = (kyma: Kyma, module: KymaModule) =>
  module.channel || kyma.spec?.channel || DEFAULT_CHANNEL;

/** The status channel of a pinned module (upstream's desired channel for a version install): no channel it follows. */
export const PINNED_CHANNEL = 'none';

/** The channel a module's resolution follows: its desired channel, or `none` for a pinned module (ADR 38). */
export const followedChannel = (kyma: Kyma, module: KymaModule) =>
  module.version ? PINNED_CHANNEL : desiredChannel(kyma, module);

/** The version a module is pinned to (`spec.modules[].version`, ADR 38), if any. */
export const pinnedVersion = (module: KymaModule): string | undefined => module.version || undefined;

/** The version whose template a module with this MRM uses: the pinned one, the mandatory one, else its channel's. */
export const versionFor = (spec: ModuleReleaseMetaSpec, module: KymaModule, channel: string): string | undefined =>
  pinnedVersion(module) ?? spec.mandatory?.version ?? versionOfChannel(spec.channels, channel);

/** The template of a module: by its MRM (pinned, mandatory or channel version), else a template naming its channel
 * (or, pinned, its version). */
export function lookup(observed: Observed, module: KymaModule, channel: string): Lookup {
  const mrm = observed.releaseMetas.get(module.name);
  const pin = pinnedVersion(module);
  if (!mrm) {
    return pin
      ? lookupWithoutMrm(observed, module.name, `version ${pin}`, (t) => t.spec?.version === pin)
      : lookupWithoutMrm(observed, module.name, `channel ${channel}`, (t) => t.spec?.channel === channel);
  }
  const spec = mrm.spec;
  if (!spec?.ocmComponentName)
    return { error: `ModuleReleaseMeta ${module.name} has no ocmComponentName`, keepPrevious: false };
  const version = versionFor(spec, module, channel);
  if (!version) {
    const error = spec.channels?.length
      ? `no versions found for channel: ${channel} in module ${module.name}`
      : `no channels found for module ${module.name}`;
    return { error, keepPrevious: false };
  }
  const name = templateName(module.name, version);
  const template = observed.templates.get(name);
  // A pin to a version that has no template (a typo, a version withdrawn) keeps what is installed: Warning, not Error.
  if (!template)
    return pin
      ? {
          error: `ModuleTemplate ${name} not found for module ${module.name} pinned to version ${pin}`,
          keepPrevious: true,
        }
      : { error: `ModuleTemplate ${name} not found for module ${module.name} version ${version}`, keepPrevious: false };
  return { template, version, componentName: spec.ocmComponentName };
}

const versionOfChannel = (channels: { channel: string; version: string }[] | undefined, channel: string) =>
  channels?.find((c) => c.channel === channel)?.version;

/** Upstream's lookup without a ModuleReleaseMeta: exactly one template of the module that `matches` (its channel). */
function lookupWithoutMrm(
  observed: Observed,
  moduleName: string,
  wanted: string,
  matches: (t: ModuleTemplate) => boolean,
): Lookup {
  const candidates = (observed.allTemplates ?? []).filter((t) => moduleOf(t) === moduleName && matches(t));
  if (candidates.length !== 1) {
    const why =
      candidates.length === 0
        ? `and no ModuleTemplate for ${wanted}`
        : `and ${candidates.length} ModuleTemplates claim ${wanted}`;
    return { error: `no ModuleReleaseMeta found for module ${moduleName} ${why}`, keepPrevious: true };
  }
  const [template] = candidates as [ModuleTemplate];
  const componentName = componentNameOf(template);
  if (!componentName)
    return {
      error: `ModuleTemplate ${template.metadata.name} names no OCM component (spec.descriptor.component.name)`,
      keepPrevious: false,
    };
  return { template, version: template.spec?.version ?? '', componentName };
}

const moduleOf = (t: ModuleTemplate) => t.spec?.moduleName || t.metadata.labels?.[LABEL.moduleName];

function componentNameOf(template: ModuleTemplate): string | undefined {
  const component = (template.spec?.descriptor as { component?: { name?: unknown } } | undefined)?.component;
  return typeof component?.name === 'string' ? component.name : undefined;
}

export { visibilityProblem } from './visibility.ts';

export { downgradeProblem } from './downgrade.ts';

export const trackingOf = (template: ModuleTemplate) => ({
  apiVersion: API_VERSION,
  kind: 'ModuleTemplate',
  metadata: {
    name: template.metadata.name,
    namespace: template.metadata.namespace ?? '',
    generation: template.metadata.generation ?? 0,
  },
});
