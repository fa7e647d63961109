import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, FINALIZER, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import type { ApplyContext } from './context.ts';
import { setFinalizers } from './finalizers.ts';
import { refOfSynced } from '../../shared/render/render.ts';
import { markStep } from '../../shared/host/steps.ts';

/** `managed: false`, one step per call: take the managed-by label off every synced resource (they stay, the user's),
 * drop the label-removal finalizer, then delete the Manifest, whose deletion leaves the runtime untouched. */
export async function unmanage(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient | undefined): Promise<void> {
  const finalizers = manifest.metadata.finalizers ?? [];
  const ref = {
    apiVersion: API_VERSION,
    kind: 'Manifest',
    namespace: manifest.metadata.namespace,
    name: manifest.metadata.name,
  };
  markStep('manifest_unmanaged_update');
  if (manifest.metadata.deletionTimestamp) {
    const ours: string[] = [FINALIZER.declarative, FINALIZER.labelRemoval, FINALIZER.resource];
    if (finalizers.some((f) => ours.includes(f)))
      await setFinalizers(
        ctx.kcp,
        manifest,
        finalizers.filter((f) => !ours.includes(f)),
        ctx.events,
      );
    return;
  }
  if (finalizers.includes(FINALIZER.labelRemoval) && runtime) {
    markStep('manifest_labels_removal');
    for (const r of (manifest.status?.synced ?? []).filter((x) => !ctx.scope.shared || x.namespace)) {
      const target = refOfSynced(r);
      await runtime.mergePatch(target, { metadata: { labels: { [LABEL.managedBy]: null } } }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
    }
    await setFinalizers(
      ctx.kcp,
      manifest,
      finalizers.filter((f) => f !== FINALIZER.labelRemoval),
      ctx.events,
    );
    ctx.log.info(
      { resources: manifest.status?.synced?.length ?? 0 },
      'module unmanaged: managed-by label removed from its resources',
    );
    return;
  }
  await ctx.kcp.delete(ref);
}
