import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { FINALIZER } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import type { ApplyContext } from './context.ts';
import { setFinalizers } from './finalizers.ts';
import { syncModule } from './sync.ts';
import { removeObjects } from '../../shared/render/sync.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { hasDefaultCr } from '../../shared/core/manifest-finalizers.ts';
import { writeStatus } from './write-status.ts';
import { unrecorded } from './unrecorded.ts';
import { moduleOwnership } from './ownership.ts';
import { markStep } from '../../shared/host/steps.ts';
import { blockingCrs, crText, type ListedCr } from '../../shared/render/blocking-crs.ts';

const OURS: string[] = [FINALIZER.declarative, FINALIZER.labelRemoval, FINALIZER.resource];

/** The Manifest is being deleted, one step per call (ADR 8): while module CRs other than the default one exist the
 * status names them; then the default CR, the module's resources (two waves, waiting until gone), our finalizers.
 * Without a runtime (kubeconfig Secret gone) the finalizers go at once. */
export async function uninstall(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient | undefined): Promise<void> {
  markStep('manifest_pre_delete');
  if (!runtime) return removeAllFinalizers(ctx, manifest);
  const blocking = await blockingCrs(runtime, manifest, ctx.scope);
  if (blocking.length) {
    const kept = await syncModule(ctx, manifest, runtime);
    const synced = 'target' in kept && kept.target ? { synced: kept.target } : {};
    return wait(ctx, manifest, `waiting for module crs deletion: ${blocking.join(', ')}`, synced);
  }
  const defaultCr = manifest.spec?.resource as unknown as RuntimeObject;
  if (hasDefaultCr(manifest) && (await deleteIfPresent(runtime, defaultCr))) {
    // Name it and what holds it, so a stuck deletion says why (upstream: the CR is simply waited for).
    const current = await runtime
      .get<ListedCr>({
        apiVersion: defaultCr.apiVersion,
        kind: defaultCr.kind,
        name: defaultCr.metadata.name,
        namespace: defaultCr.metadata.namespace,
      })
      .catch(() => undefined);
    return wait(
      ctx,
      manifest,
      `deleting the default CR and waiting until it is gone${current ? `: ${crText(defaultCr.kind, current)}` : ''}`,
    );
  }
  // What another installed module of the Kyma ships too stays (ADR 33); what an install applied but never recorded
  // goes too (ADR 81).
  const remaining = await removeObjects(
    runtime,
    [...(manifest.status?.synced ?? []), ...(await unrecorded(ctx, manifest, runtime))],
    ctx.scope.shared,
    moduleOwnership(ctx.manifests, manifest),
  );
  if (remaining.length)
    return wait(
      ctx,
      manifest,
      `removing module resources: ${remaining.length} still present (${remaining
        .slice(0, 3)
        .map((r) => `${r.kind} ${r.name}`)
        .join(', ')})`,
    );
  await removeFinalizers(ctx, manifest);
}

/** Our finalizers go; if others remain, the status says which ones the Manifest now waits for. */
async function removeFinalizers(ctx: ApplyContext, manifest: Manifest): Promise<void> {
  const rest = (manifest.metadata.finalizers ?? []).filter((f) => !OURS.includes(f));
  if (rest.length !== (manifest.metadata.finalizers ?? []).length) {
    await setFinalizers(ctx.kcp, manifest, rest, ctx.events);
    return;
  }
  if (rest.length)
    await writeStatus(ctx, manifest, {
      state: 'Deleting',
      operation: `waiting as other finalizers are present: [${rest.join(', ')}]`,
    });
}

/** The runtime is gone (kubeconfig Secret deleted): nothing can be cleaned up there, every finalizer goes (upstream). */
async function removeAllFinalizers(ctx: ApplyContext, manifest: Manifest): Promise<void> {
  if (manifest.metadata.finalizers?.length) await setFinalizers(ctx.kcp, manifest, [], ctx.events);
}

async function wait(
  ctx: ApplyContext,
  manifest: Manifest,
  operation: string,
  extra: { synced?: SyncedResource[] } = {},
): Promise<never> {
  await writeStatus(ctx, manifest, { state: 'Deleting', operation, ...extra });
  throw new NotYetReadyError(operation, 'manifest_pre_delete_enqueue_required');
}

async function deleteIfPresent(runtime: KubeClient, cr: RuntimeObject): Promise<boolean> {
  try {
    return await runtime.delete({
      apiVersion: cr.apiVersion,
      kind: cr.kind,
      name: cr.metadata.name,
      namespace: cr.metadata.namespace,
    });
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}
