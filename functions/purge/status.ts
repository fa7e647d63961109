import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';

/** Field manager of the deletion chain's status writes (aggregate-status leaves deleting Kymas alone). */
export const PURGE_MANAGER = FIELD_MANAGER.purge;

/** Kyma state Deleting with `operation` as lastOperation; written only when either changes. */
export async function setKymaDeletionStatus(kcp: KubeClient, kyma: Kyma, operation: string): Promise<void> {
  if (kyma.status?.state === 'Deleting' && kyma.status.lastOperation?.operation === operation) return;
  const { name, namespace } = kyma.metadata;
  await kcp.apply(
    {
      apiVersion: API_VERSION,
      kind: 'Kyma',
      metadata: { name, namespace },
      status: {
        state: 'Deleting',
        lastOperation: { operation, lastUpdateTime: new Date().toISOString() },
        lastTrace: currentTraceparent(),
      },
    },
    PURGE_MANAGER,
    'status',
  );
}
