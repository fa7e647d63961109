import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';

/** Sets the Manifest's finalizer list (merge patch guarded by resourceVersion: a concurrent change → 409, retried). */
export async function setFinalizers(kcp: KubeClient, manifest: Manifest, finalizers: string[]): Promise<Manifest> {
  const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: manifest.metadata.namespace, name: manifest.metadata.name };
  return kcp.mergePatch<Manifest>(ref, { metadata: { finalizers, resourceVersion: manifest.metadata.resourceVersion } });
}

export const withFinalizers = (manifest: Manifest, wanted: string[]) =>
  [...new Set([...(manifest.metadata.finalizers ?? []), ...wanted])];

export const missingFinalizers = (manifest: Manifest, wanted: string[]) =>
  wanted.filter((f) => !(manifest.metadata.finalizers ?? []).includes(f));
