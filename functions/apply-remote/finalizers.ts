import type { Manifest } from '../../shared/core/manifest.ts';
import { failedWriteEvent, isWorthAWarning } from '../../shared/core/state-events.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { involvedOf, type EventRecorder } from '../../shared/kube/events.ts';
import { markStep } from '../../shared/host/steps.ts';

/** Sets the Manifest's finalizer list (merge patch guarded by resourceVersion: a concurrent change → 409, retried). A
 * failed write is upstream's Warning (ADR 40): PatchObject when finalizers were added, UpdateObject when removed. */
export async function setFinalizers(
  kcp: KubeClient,
  manifest: Manifest,
  finalizers: string[],
  events?: EventRecorder,
): Promise<Manifest> {
  const adding = finalizers.some((f) => !(manifest.metadata.finalizers ?? []).includes(f));
  if (adding) markStep('manifest_add_finalizer');
  const ref = {
    apiVersion: API_VERSION,
    kind: 'Manifest',
    namespace: manifest.metadata.namespace,
    name: manifest.metadata.name,
  };
  return kcp
    .mergePatch<Manifest>(ref, { metadata: { finalizers, resourceVersion: manifest.metadata.resourceVersion } })
    .catch(async (error: unknown) => {
      if (isWorthAWarning(error))
        await events?.record(involvedOf(manifest), failedWriteEvent(adding ? 'PatchObject' : 'UpdateObject', error));
      throw error;
    });
}

export const withFinalizers = (manifest: Manifest, wanted: string[]) => [
  ...new Set([...(manifest.metadata.finalizers ?? []), ...wanted]),
];

export const missingFinalizers = (manifest: Manifest, wanted: string[]) =>
  wanted.filter((f) => !(manifest.metadata.finalizers ?? []).includes(f));
