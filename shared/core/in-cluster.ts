// Single-cluster mode (ADR 21): a Kyma labelled `operator.kyma-project.io/in-cluster: "true"` gets Manifests with that
// label, which install into the KCP cluster itself; `spec.remote` means nothing (ADR 40). Allowed only with
// LIFECYCLE_IN_CLUSTER=true, as it needs rights on the control plane. Pure.
import type { Kyma } from './kyma.ts';
import type { Manifest } from './manifest.ts';
import { LABEL } from './vocabulary.ts';

export const IN_CLUSTER_SETTING = 'LIFECYCLE_IN_CLUSTER';

export const isInClusterKyma = (kyma: Pick<Kyma, 'metadata'>): boolean =>
  kyma.metadata.labels?.[LABEL.inCluster] === 'true';

export const isInClusterManifest = (manifest: Pick<Manifest, 'metadata'>): boolean =>
  manifest.metadata.labels?.[LABEL.inCluster] === 'true';

/** Why this control plane does not install into itself ('' when it does). */
export const inClusterRefusal = (enabled: boolean): string =>
  enabled
    ? ''
    : `in-cluster installs are disabled on this control plane (set ${IN_CLUSTER_SETTING}=true to let modules install into the control-plane cluster)`;

/** Where a Manifest's module goes: the control-plane cluster, the runtime of its Kyma, or nowhere (why). */
export type ManifestTarget = { inCluster: true } | { kyma: string } | { refused: string };

export function targetOf(manifest: Pick<Manifest, 'spec' | 'metadata'>, inClusterEnabled: boolean): ManifestTarget {
  if (isInClusterManifest(manifest)) {
    const refusal = inClusterRefusal(inClusterEnabled);
    return refusal ? { refused: refusal } : { inCluster: true };
  }
  const kyma = manifest.metadata.labels?.[LABEL.kymaName];
  return kyma
    ? { kyma }
    : {
        refused: `Manifest has no ${LABEL.kymaName} label: no runtime to install to (the label ${LABEL.inCluster}: "true" installs into the control-plane cluster)`,
      };
}
