import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import type { ApplyContext } from './context.ts';
import { ensureRemoteNamespace, forgetRemoteNamespace } from '../../shared/kube/remote-namespace.ts';
import { syncObjects } from '../../shared/render/sync.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { renderTarget } from './target.ts';
import { moduleOwnership } from './ownership.ts';

export type SyncOutcome =
  | { applied: RuntimeObject[]; target: SyncedResource[]; kept: string[] }
  | { error: string; stage: 'resources' | 'apply'; target?: SyncedResource[] };

/**
 * The module's version as the Manifest asks for it, on the runtime: pull the layer (or render its Helm charts), render, prune what this version
 * no longer has (waiting until it is gone), apply. Used by install, and by a blocked deletion, which keeps the
 * operator current (an MRM bump still upgrades it) while user CRs hold the removal.
 */
export async function syncModule(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<SyncOutcome> {
  const layer = manifest.spec?.installs?.length ? await ctx.charts.moduleYaml(manifest) : await ctx.layers.rawManifest(manifest);
  if ('error' in layer) return { error: layer.error, stage: 'resources' };
  const objects = await renderTarget(runtime, manifest, layer.yaml, ctx.pullSecret, ctx.scope);
  if ('error' in objects) return { error: objects.error, stage: 'resources' };
  // Drift checks read everything; other calls trust what was ensured or applied before (ADR 27).
  await ensureRemoteNamespace(runtime, ctx.scope.namespace, !ctx.force);
  const ownership = moduleOwnership(ctx.manifests, manifest);
  const synced = await syncObjects(runtime, objects, manifest.status?.synced ?? [], { fieldManager: FIELD_MANAGER.applier, shared: ctx.scope.shared, newWithoutRead: !ctx.force, ...(ownership ? { ownership } : {}) })
    .catch((error: unknown) => { forgetRemoteNamespace(runtime, ctx.scope.namespace); throw error; });
  if ('error' in synced) forgetRemoteNamespace(runtime, ctx.scope.namespace);
  if ('pruning' in synced) throw new NotYetReadyError(`pruning ${synced.pruning.length} resources dropped by version ${manifest.spec?.version ?? ''}: waiting until they are gone`, 'manifest_prune_diff_not_finished');
  if ('error' in synced) return { error: synced.error, stage: 'apply', target: synced.target };
  return synced;
}
