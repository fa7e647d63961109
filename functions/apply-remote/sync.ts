import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { ANNOTATION, FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import { markStep } from '../../shared/host/steps.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import type { ApplyContext } from './context.ts';
import {
  checkRemoteNamespace,
  ensureRemoteNamespace,
  forgetRemoteNamespace,
} from '../../shared/kube/remote-namespace.ts';
import { syncObjects } from '../../shared/render/sync.ts';
import { refOfSynced, type RuntimeObject } from '../../shared/render/render.ts';
import type { HeldCrd } from '../../shared/render/crd-holders.ts';
import { involvedOf } from '../../shared/kube/events.ts';
import { crdPrunedEvent } from '../../shared/core/state-events.ts';
import { renderTarget } from '../../shared/render/target.ts';
import { moduleOwnership } from './ownership.ts';
import { seldomCheckedWithinMs } from '../../shared/core/resync-reasons.ts';

export type SyncOutcome =
  | {
      applied: RuntimeObject[];
      target: SyncedResource[];
      kept: string[];
      held?: SyncedResource[];
      heldCrds?: HeldCrd[];
    }
  | { error: string; stage: 'resources' | 'apply'; target?: SyncedResource[] };

/** The module's version as the Manifest asks for it, on the runtime: pull the layer (or render its Helm charts),
 * render, prune what this version no longer has (waiting until gone), apply. Also used by a blocked deletion, which
 * keeps the operator current while user CRs hold the removal (ADR 8). */
export async function syncModule(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<SyncOutcome> {
  markStep('manifest_parse_spec');
  const layer = await moduleYaml(ctx, manifest);
  if ('error' in layer) return { error: layer.error, stage: 'resources' };
  markStep('manifest_render_resources');
  const objects = await renderTarget(runtime, manifest, layer.yaml, ctx.pullSecret, ctx.scope, ctx.kcpSecrets);
  if ('error' in objects) return { error: objects.error, stage: 'resources' };
  await namespaceOfModules(ctx, runtime);
  const ownership = moduleOwnership(ctx.manifests, manifest);
  const sameLayer = inSyncedLayer(manifest);
  markStep('manifest_sync_resources');
  const allowCrdPrune = (manifest.metadata.annotations?.[ANNOTATION.allowCrdPrune] ?? '').split(',').filter(Boolean);
  const synced = await syncObjects(runtime, objects, manifest.status?.synced ?? [], {
    fieldManager: FIELD_MANAGER.applier,
    shared: ctx.scope.shared,
    newWithoutRead: !ctx.force,
    sameLayer,
    allowCrdPrune,
    ...(ownership ? { ownership } : {}),
    ...(ctx.listed ? { read: ctx.listed.read.bind(ctx.listed) } : {}),
  }).catch((error: unknown) => {
    forgetRemoteNamespace(runtime, ctx.scope.namespace);
    throw error;
  });
  if ('error' in synced) forgetRemoteNamespace(runtime, ctx.scope.namespace);
  for (const lost of ('error' in synced ? [] : synced.prunedWithCrs) ?? [])
    await ctx.events.record(involvedOf(manifest), crdPrunedEvent(lost));
  if ('pruning' in synced)
    throw new NotYetReadyError(
      `pruning ${synced.pruning.length} resources dropped by version ${manifest.spec?.version ?? ''}: waiting until they are gone`,
      'manifest_prune_diff_not_finished',
    );
  if ('error' in synced) return { error: synced.error, stage: 'apply', target: synced.target };
  // Objects the same layer no longer renders are left (ADR 40); those someone removed since drop out of the record.
  const listed = synced.held ?? [];
  const held = (await Promise.all(listed.map(async (r) => ((await existsOn(runtime, r)) ? [r] : [])))).flat();
  return {
    applied: synced.applied,
    target: synced.target,
    kept: synced.kept,
    ...(held.length ? { held } : {}),
    ...(synced.heldCrds ? { heldCrds: synced.heldCrds } : {}),
  };
}

/** The runtime namespace the modules go into. Full checks read it (once per five minutes, ADR 56, a drift check every
 * other period, ADR 90; the resync's from the watch cache, ADR 76); other calls trust what was ensured before (ADR 27). */
export function namespaceOfModules(ctx: ApplyContext, runtime: KubeClient): Promise<void> {
  if (!ctx.force) return ensureRemoteNamespace(runtime, ctx.scope.namespace, true);
  const drift = ctx.listed ? { freshness: 'any' as const, recheckMs: seldomCheckedWithinMs(ctx.driftPeriodMs) } : {};
  return checkRemoteNamespace(runtime, ctx.scope.namespace, drift.freshness, drift.recheckMs);
}

/** The module's YAML: its raw-manifest layer, or its Helm charts rendered (ADR 22). */
export const moduleYaml = (ctx: Pick<ApplyContext, 'charts' | 'layers'>, manifest: Manifest) =>
  manifest.spec?.installs?.length ? ctx.charts.moduleYaml(manifest) : ctx.layers.rawManifest(manifest);

const existsOn = (runtime: KubeClient, r: SyncedResource) =>
  runtime.get(refOfSynced(r)).then(
    (found) => found !== undefined,
    (error: unknown) => !isNotFound(error),
  );

/** PURE. Upstream's guard (`sync-oci-ref`, ADR 40): the Manifest's raw-manifest layer is the one last fully synced, so
 * a difference to what was synced is an inconsistency to report, never a reason to prune. */
export function inSyncedLayer(manifest: Manifest): boolean {
  const ref = manifest.spec?.install?.source.ref;
  return (
    !manifest.metadata.deletionTimestamp &&
    ref !== undefined &&
    manifest.metadata.annotations?.[ANNOTATION.syncOciRef] === ref
  );
}
