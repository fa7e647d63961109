import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, FIELD_MANAGER, FINALIZER, LABEL, MANAGED_BY_KCP } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';

/** The KCP Kyma carries the lifecycle finalizer (so deletion runs the chain) and label managed-by=lifecycle-manager,
 * applied as `lifecycle-manager` only when missing. */
export async function ensureKymaMetadata(kcp: KubeClient, kyma: Kyma): Promise<void> {
  const labelled = kyma.metadata.labels?.[LABEL.managedBy] === MANAGED_BY_KCP;
  if (labelled && kyma.metadata.finalizers?.includes(FINALIZER.kyma)) return;
  await kcp.apply({
    apiVersion: API_VERSION, kind: 'Kyma',
    metadata: { name: kyma.metadata.name, namespace: kyma.metadata.namespace, labels: { [LABEL.managedBy]: MANAGED_BY_KCP }, finalizers: [FINALIZER.kyma] },
  }, FIELD_MANAGER.lifecycleManager);
}
