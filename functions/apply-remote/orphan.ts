import type { Kyma } from '../../shared/domain/kyma.ts';
import type { Manifest } from '../../shared/domain/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/domain/vocabulary.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';

const UNREFERENCED_GRACE_MS = 5 * 60_000;

/** PURE. Why a Manifest is an orphan ('' if it is not): its Kyma is gone, or (non-mandatory) the Kyma's status has
 * not referenced it for 5 minutes. */
export function orphanReason(manifest: Manifest, kyma: Kyma | undefined, now: number): string {
  const kymaName = manifest.metadata.labels?.[LABEL.kymaName] ?? '';
  if (!kyma) return `orphaned manifest detected: Kyma ${kymaName} does not exist`;
  if (manifest.metadata.labels?.[LABEL.mandatoryModule] === 'true') return '';
  const referenced = (kyma.status?.modules ?? []).some((m) => m.manifest?.metadata.name === manifest.metadata.name);
  const age = now - Date.parse(manifest.metadata.creationTimestamp ?? '');
  return !referenced && age > UNREFERENCED_GRACE_MS
    ? `orphaned manifest detected: Kyma ${kymaName} has not referenced it in its status for ${Math.round(age / 60_000)} minutes`
    : '';
}

export async function parentKyma(kcp: KubeClient, manifest: Manifest): Promise<Kyma | undefined> {
  return kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: manifest.metadata.namespace, name: manifest.metadata.labels?.[LABEL.kymaName] ?? '' });
}
