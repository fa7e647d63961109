import type { Manifest } from '../../shared/domain/manifest.ts';
import { FIELD_MANAGER, FINALIZER } from '../../shared/domain/vocabulary.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { NotYetReadyError } from '../../shared/runtime/errors.ts';
import { applyAll } from './apply.ts';
import { ensureDefaultCr } from './default-cr.ts';
import { missingFinalizers, setFinalizers, withFinalizers } from './finalizers.ts';
import type { ApplyContext } from './context.ts';
import { prune, pruneWaves } from './prune.ts';
import { moduleReadiness } from './readiness.ts';
import { syncedOf } from './render.ts';
import { renderTarget } from './target.ts';
import { ensureRemoteNamespace } from './namespace.ts';
import { CONDITION, hasDefaultCr } from './status.ts';
import { writeStatus } from './write-status.ts';

/**
 * The install pipeline, one KCP write per call where a step must be seen before the next: finalizers, then
 * render → prune what the new version dropped → apply → default CR → readiness → status. A module still
 * rolling out ends the call with NotYetReady (503), so the delivery is retried.
 */
export async function install(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<void> {
  const wanted = [FINALIZER.declarative, FINALIZER.labelRemoval, ...(hasDefaultCr(manifest) ? [FINALIZER.resource] : [])];
  if (missingFinalizers(manifest, wanted).length) {
    await setFinalizers(ctx.kcp, manifest, withFinalizers(manifest, wanted));
    return;
  }
  const layer = await ctx.layers.rawManifest(manifest);
  if ('error' in layer) return writeStatus(ctx, manifest, { state: 'Error', operation: layer.error, conditions: { [CONDITION.resources.type]: { ok: false, message: layer.error } } });
  const objects = await renderTarget(runtime, manifest, layer.yaml);
  if ('error' in objects) {
    return writeStatus(ctx, manifest, { state: 'Error', operation: objects.error, conditions: { [CONDITION.resources.type]: { ok: false, message: objects.error } } });
  }
  await ensureRemoteNamespace(runtime);
  const target = objects.map(syncedOf);
  const remaining = await prune(runtime, pruneWaves(manifest.status?.synced ?? [], target));
  if (remaining.length) throw new NotYetReadyError(`pruning ${remaining.length} resources dropped by version ${manifest.spec?.version ?? ''}: waiting until they are gone`);
  const applied = await applyAll(runtime, objects, FIELD_MANAGER.applier);
  if ('error' in applied) return writeStatus(ctx, manifest, { state: 'Error', operation: applied.error, synced: target });
  const crMessage = await ensureDefaultCr(runtime, manifest);
  const readiness = moduleReadiness(applied.objects);
  const installed = readiness.state === 'Ready';
  await writeStatus(ctx, manifest, {
    state: readiness.state, synced: target,
    operation: installed ? 'resources are ready' : readiness.state === 'Error' ? readiness.reason : `waiting for resources to become ready: ${readiness.reason}`,
    conditions: {
      [CONDITION.resources.type]: { ok: true, message: `${target.length} resources rendered and applied` },
      [CONDITION.installation.type]: { ok: installed, message: readiness.reason },
      ...(crMessage ? { [CONDITION.moduleCr.type]: { ok: true, message: crMessage } } : {}),
    },
  });
  if (readiness.state === 'Processing') throw new NotYetReadyError(readiness.reason);
}
