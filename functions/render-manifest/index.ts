// render-manifest: a resolved Kyma → one Manifest per wanted module. The order of steps is decide.ts (ADR 45); here
// the Kyma and its Manifests are read (watch cache) and the module sources gathered: resolved, mandatory
// (mandatory.ts), removed but still being deleted (removing.ts). shared/host/invoke.ts runs every call.
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { ANNOTATION, API_VERSION, FIELD_MANAGER, LABEL } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import { OwnWatermarks } from '../../shared/kube/own-watermarks.ts';
import { APISERVER_DELETE, MODULES_RESOLVED, RESYNC_DUE } from '../../shared/host/events.ts';
import { carriedKymaName, kymaKeyOf } from '../../shared/kube/kyma-of.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import type { Logger } from '../../shared/host/logger.ts';
import {
  ignoreReason,
  namedManifests,
  ownManifest,
  renderable,
  renderSteps,
  type RenderStep,
  type RenderView,
} from './decide.ts';
import { installSources, type ModuleSource } from '../../shared/core/desired-manifest.ts';
import { upstreamManifestName } from '../../shared/core/names.ts';
import { mandatorySources } from './mandatory.ts';
import { removedModuleSources } from './removing.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { laneToRecord } from '../../shared/host/lane.ts';
import { announcer } from '../../shared/host/announce.ts';
import { renderedFinalizers } from '../../shared/core/manifest-finalizers.ts';

export const NAME = 'render-manifest';
/** How long a call waits for the call before it about the same Kyma, then runs anyway (ADR 65's bound). */
const SERIAL_WAIT_MS = 2_000;

/** `modules.resolved` (or a Manifest deleted) → one Manifest per wanted module (written only when it differs);
 * Manifests of modules no longer wanted (or refused) are deleted. Manifest changes drive apply-remote. */
export function renderManifest(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.templates, CACHED.releaseMetas]);
  /** This instance's newest Manifest write per Kyma: the next call lists a cache that has it (ADR 62). */
  const marks = new OwnWatermarks();
  return {
    name: NAME,
    // A Manifest deleted on the KCP is its Kyma's call: rendered again while the Kyma wants it, as upstream's Kyma
    // controller re-creates what it owns (ADR 66). One call per Kyma at a time, as for its own events.
    accepts: [MODULES_RESOLVED, RESYNC_DUE, APISERVER_DELETE],
    serialOf: (event, key) => {
      const kyma = kymaKeyOf(event, key);
      return kyma ? { serial: kyma, waitMs: SERIAL_WAIT_MS } : undefined;
    },
    async handle({ event, key, log }) {
      const name = key.kind === 'Manifest' ? carriedKymaName(event) : key.name;
      const kyma = name
        ? await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name })
        : undefined;
      const ignored = ignoreReason(kyma);
      if (ignored || !kyma) {
        log.debug({ step: 'Ignore', why: ignored?.why }, `${NAME}: nothing to render`);
        return undefined;
      }
      marks.require(API_VERSION, 'Manifest', kyma.metadata);
      for (const step of renderSteps(await observe(deps, kyma)))
        await take(deps, kyma, step, log.child({ step: step.step }), marks);
      return undefined;
    },
  };
}

/** The Kyma's Manifests and the Manifest each of its modules should have. */
async function observe(deps: FunctionDeps, kyma: Kyma): Promise<RenderView> {
  const existing = await listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest', {
    namespace: kyma.metadata.namespace ?? '',
    labelSelector: `${LABEL.kymaName}=${kyma.metadata.name}`,
  });
  const mandatory = await mandatorySources(deps, kyma);
  const all = [...(await sources(deps, kyma)), ...mandatory, ...(await removedModuleSources(deps, kyma, existing))];
  const elsewhere = await namesHeldElsewhere(deps, kyma, all, existing);
  const wanted = namedManifests(kyma, all, existing, (name) => elsewhere.has(name));
  return { kyma, existing, wanted, mandatory: new Set(mandatory.map((m) => m.module.name)) };
}

async function take(
  deps: FunctionDeps,
  kyma: Kyma,
  step: RenderStep,
  log: Logger,
  marks: OwnWatermarks,
): Promise<void> {
  const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: kyma.metadata.namespace };
  switch (step.step) {
    case 'WriteManifest': {
      const written = await write(deps, step.manifest, step.stored, log);
      return marks.note(API_VERSION, 'Manifest', kyma.metadata, written.metadata.resourceVersion);
    }
    case 'MarkUnmanaged':
      await deps.kcp.mergePatch(
        { ...ref, name: step.name },
        { metadata: { annotations: { [ANNOTATION.isUnmanaged]: 'true' } } },
      );
      return log.info({ manifest: step.name }, 'module set to managed: false: Manifest marked unmanaged');
    case 'DeleteManifest':
      await deps.kcp.delete({ ...ref, name: step.name });
      return log.info({ manifest: step.name }, 'module no longer wanted: Manifest deleted');
    case 'Ignore':
      return undefined;
  }
}

export async function sources(deps: FunctionDeps, kyma: Kyma): Promise<ModuleSource[]> {
  const found = await Promise.all(
    renderable(kyma).map(async ({ module, entry }) => {
      const ref = entry.template?.metadata;
      const template =
        ref &&
        (await deps.kcp.get<ModuleTemplate>({
          apiVersion: API_VERSION,
          kind: 'ModuleTemplate',
          namespace: ref.namespace || kyma.metadata.namespace,
          name: ref.name,
        }));
      const componentName = entry.ocmComponentName ?? '';
      const version = template?.spec?.version ?? '';
      const lookup = template ? await deps.artifacts.lookup(componentName, version, template) : undefined;
      if (!template || !lookup || 'error' in lookup) return [];
      const { artifact } = lookup;
      const install = installSources(deps.registry.host, componentName, artifact.install);
      return [
        {
          module,
          entry,
          template,
          componentName,
          version: artifact.version,
          ...install,
          localizedImages: artifact.localizedImages,
        },
      ];
    }),
  );
  return found.flat();
}

/** Upstream's names of modules that have no Manifest yet which a Manifest of another Kyma holds (watch cache). */
async function namesHeldElsewhere(
  deps: FunctionDeps,
  kyma: Kyma,
  all: ModuleSource[],
  existing: Manifest[],
): Promise<Set<string>> {
  const held = new Set<string>();
  for (const src of all.filter((s) => !ownManifest(existing, s.module.name))) {
    const name = upstreamManifestName(kyma.metadata.name, src.componentName, src.module.name);
    const found = await deps.kcp.get<Manifest>({
      apiVersion: API_VERSION,
      kind: 'Manifest',
      namespace: kyma.metadata.namespace,
      name,
    });
    if (found && found.metadata.labels?.[LABEL.kymaName] !== kyma.metadata.name) held.add(name);
  }
  return held;
}

/** The user lane, recorded on the Manifest for the calls its write causes (ADR 72); absent, a write removes it. */
const laneAnnotation = (): Record<string, string> => {
  const lane = laneToRecord();
  return lane ? { [ANNOTATION.lastLane]: lane } : {};
};

async function write(
  deps: FunctionDeps,
  desired: Manifest,
  stored: Manifest | undefined,
  log: Logger,
): Promise<Manifest> {
  // The write records this call's trace (ADR 20); the decision ignores it, so it never causes a write. It carries the
  // install finalizers: a new Manifest is created with them (ADR 26), an update keeps those stored.
  const finalizers = renderedFinalizers(stored, desired);
  const metadata = {
    ...desired.metadata,
    ...(finalizers.length ? { finalizers } : {}),
    annotations: { ...desired.metadata.annotations, [ANNOTATION.lastTrace]: currentTraceparent(), ...laneAnnotation() },
  };
  const traced = { ...desired, metadata };
  const written = await deps.kcp.apply(traced, FIELD_MANAGER.lifecycleManager);
  log.info(
    { manifest: desired.metadata.name, version: desired.spec?.version },
    stored ? 'Manifest updated' : 'Manifest created',
  );
  await announcer(deps.sink, NAME, deps.config.announceUserWrites)(stored ? 'update' : 'add', written);
  return written;
}
