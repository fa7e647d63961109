import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';

/** Upstream's: a Manifest the Kyma's status has not referenced for this long is an orphan (LIFECYCLE_ORPHAN_GRACE_SECONDS). */
export const UNREFERENCED_GRACE_MS = 5 * 60_000;

/** PURE. Why a Manifest is an orphan ('' if it is not): its Kyma is gone, or (non-mandatory) for `graceMs` no module
 * entry of the Kyma's status references it, by its `manifest` or by its resolution (Resolved and allowed) of the
 * module its module-name label names (ADR 29). */
export function orphanReason(
  manifest: Manifest,
  kyma: Kyma | undefined,
  now: number,
  graceMs = UNREFERENCED_GRACE_MS,
): string {
  const kymaName = manifest.metadata.labels?.[LABEL.kymaName] ?? '';
  if (!kyma) return `orphaned manifest detected: Kyma ${kymaName} does not exist`;
  if (manifest.metadata.labels?.[LABEL.mandatoryModule] === 'true') return '';
  const name = manifest.metadata.name;
  const module = manifest.metadata.labels?.[LABEL.moduleName];
  const referenced = (kyma.status?.modules ?? []).some(
    (m) =>
      m.manifest?.metadata.name === name ||
      (m.name === module &&
        m.ocmComponentName !== undefined &&
        m.resolution?.state === 'Resolved' &&
        m.resolution.notAllowed !== true),
  );
  const age = now - Date.parse(manifest.metadata.creationTimestamp ?? '');
  return !referenced && age > graceMs
    ? `orphaned manifest detected: Kyma ${kymaName} has not referenced it in its status for ${duration(age)}`
    : '';
}

const duration = (ms: number) =>
  ms < 60_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`;

export async function parentKyma(kcp: KubeClient, manifest: Manifest): Promise<Kyma | undefined> {
  return kcp.get<Kyma>({
    apiVersion: API_VERSION,
    kind: 'Kyma',
    namespace: manifest.metadata.namespace,
    name: manifest.metadata.labels?.[LABEL.kymaName] ?? '',
  });
}
