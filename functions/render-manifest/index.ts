// render-manifest: the steps of a call, in order, [the file that takes each].
// shared/host/invoke.ts runs every call: the object key from the event, one call per object at a time in this instance,
// cached reads no older than the event (shared/kube/README.md), a thrown error → the status the broker retries on.
// modules.resolved (or resync.due) for a Kyma:
//   1. the Kyma (watch cache); gone, deleting, skip-reconciliation or never resolved: done               [here]
//   2. its Manifests (watch cache, by the kyma-name label)                                                [here]
//   3. the module sources: resolved modules with their template and descriptor [here: sources], mandatory modules
//      [mandatory.ts], modules removed from the spec whose Manifest is still being deleted [removing.ts]
//   4. PURE: each source's Manifest, named as it is already (by labels) or upstream's name where free (ADR 40);
//      written (a new one with its finalizers) only when it differs                [decide.ts, here: write]
//   5. Manifests of modules set to managed: false annotated unmanaged                          [decide.ts, here]
//   6. Manifests of modules no longer wanted or refused deleted                                [decide.ts, here]
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { ANNOTATION, API_VERSION, FIELD_MANAGER, LABEL } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import { MODULES_RESOLVED, RESYNC_DUE } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { installSources, namedManifests, needsWrite, ownManifest, renderable, toUnmanage, unwantedManifests, type ModuleSource } from './decide.ts';
import { upstreamManifestName } from '../../shared/core/names.ts';
import { mandatorySources } from './mandatory.ts';
import { removedModuleSources } from './removing.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { renderedFinalizers } from '../../shared/core/manifest-finalizers.ts';

export const NAME = 'render-manifest';

/** `modules.resolved` → one Manifest per wanted module (created or updated only when it differs); Manifests of
 * modules no longer wanted (or refused) are deleted. Manifest changes drive apply-remote through the source. */
export function renderManifest(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.templates, CACHED.releaseMetas]);
  return {
    name: NAME,
    accepts: [MODULES_RESOLVED, RESYNC_DUE],
    async handle({ key, log }) {
      const kyma = await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name: key.name });
      if (!kyma || kyma.metadata.deletionTimestamp || kyma.metadata.labels?.[LABEL.skipReconciliation] === 'true') return undefined;
      if (!kyma.status?.specSource) return undefined; // not resolved yet: nothing is known to be (un)wanted
      const existing = await listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest',
        { namespace: key.namespace, labelSelector: `${LABEL.kymaName}=${key.name}` });
      const mandatory = await mandatorySources(deps, kyma);
      const removing = await removedModuleSources(deps, kyma, existing);
      const all = [...await sources(deps, kyma), ...mandatory, ...removing];
      const elsewhere = await namesHeldElsewhere(deps, kyma, all, existing);
      for (const desired of namedManifests(kyma, all, existing, (name) => elsewhere.has(name))) await write(deps, desired, existing, log);
      for (const manifest of toUnmanage(kyma, existing)) {
        await deps.kcp.mergePatch({ apiVersion: API_VERSION, kind: 'Manifest', namespace: key.namespace, name: manifest.metadata.name }, { metadata: { annotations: { [ANNOTATION.isUnmanaged]: 'true' } } });
        log.info({ manifest: manifest.metadata.name }, 'module set to managed: false: Manifest marked unmanaged');
      }
      for (const manifest of unwantedManifests(kyma, existing, new Set(mandatory.map((m) => m.module.name)))) {
        await deps.kcp.delete({ apiVersion: API_VERSION, kind: 'Manifest', namespace: key.namespace, name: manifest.metadata.name });
        log.info({ manifest: manifest.metadata.name }, 'module no longer wanted: Manifest deleted');
      }
      return undefined;
    },
  };
}

export async function sources(deps: FunctionDeps, kyma: Kyma): Promise<ModuleSource[]> {
  const found = await Promise.all(renderable(kyma).map(async ({ module, entry }) => {
    const ref = entry.template?.metadata;
    const template = ref && await deps.kcp.get<ModuleTemplate>({ apiVersion: API_VERSION, kind: 'ModuleTemplate', namespace: ref.namespace || kyma.metadata.namespace, name: ref.name });
    const componentName = entry.ocmComponentName ?? '';
    const version = template?.spec?.version ?? '';
    const lookup = template ? await deps.artifacts.lookup(componentName, version, template) : undefined;
    if (!template || !lookup || 'error' in lookup) return [];
    const { artifact } = lookup;
    const install = installSources(deps.registry.host, componentName, artifact.install);
    return [{ module, entry, template, componentName, version: artifact.version, ...install, localizedImages: artifact.localizedImages }];
  }));
  return found.flat();
}

/** Upstream's names of modules that have no Manifest yet which a Manifest of another Kyma holds (watch cache). */
async function namesHeldElsewhere(deps: FunctionDeps, kyma: Kyma, all: ModuleSource[], existing: Manifest[]): Promise<Set<string>> {
  const held = new Set<string>();
  for (const src of all.filter((s) => !ownManifest(existing, s.module.name))) {
    const name = upstreamManifestName(kyma.metadata.name, src.componentName, src.module.name);
    const found = await deps.kcp.get<Manifest>({ apiVersion: API_VERSION, kind: 'Manifest', namespace: kyma.metadata.namespace, name });
    if (found && found.metadata.labels?.[LABEL.kymaName] !== kyma.metadata.name) held.add(name);
  }
  return held;
}

async function write(deps: FunctionDeps, desired: Manifest, existing: Manifest[], log: Logger): Promise<void> {
  const stored = existing.find((m) => m.metadata.name === desired.metadata.name);
  if (!needsWrite(stored, desired)) return;
  // The write records this call's trace (ADR 20); the comparison above ignores it, so it never causes a write. It
  // carries the install finalizers: a new Manifest is created with them (ADR 26), an update keeps those stored.
  const finalizers = renderedFinalizers(stored, desired);
  const metadata = { ...desired.metadata, ...(finalizers.length ? { finalizers } : {}),
    annotations: { ...desired.metadata.annotations, [ANNOTATION.lastTrace]: currentTraceparent() } };
  const traced = { ...desired, metadata };
  await deps.kcp.apply(traced, FIELD_MANAGER.lifecycleManager);
  log.info({ manifest: desired.metadata.name, version: desired.spec?.version }, stored ? 'Manifest updated' : 'Manifest created');
}
