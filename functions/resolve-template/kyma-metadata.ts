import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, FIELD_MANAGER, FINALIZER, LABEL, MANAGED_BY_KCP } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { involvedOf, type EventRecorder } from '../../shared/kube/events.ts';
import { failedWriteEvent, isWorthAWarning } from '../../shared/core/state-events.ts';
import { markStep } from '../../shared/host/steps.ts';

/** The KCP Kyma carries the lifecycle finalizer (so deletion runs the chain) and label managed-by=lifecycle-manager,
 * applied as `lifecycle-manager` only when missing; a failed write is upstream's UpdateSpecError Warning. The Kyma as
 * it is then. */
export async function ensureKymaMetadata(kcp: KubeClient, kyma: Kyma, events: EventRecorder): Promise<Kyma> {
  const labelled = kyma.metadata.labels?.[LABEL.managedBy] === MANAGED_BY_KCP;
  if (labelled && kyma.metadata.finalizers?.includes(FINALIZER.kyma)) return kyma;
  markStep('labels_and_finalizers_update');
  return kcp
    .apply<Kyma>(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: {
          name: kyma.metadata.name,
          namespace: kyma.metadata.namespace,
          labels: { [LABEL.managedBy]: MANAGED_BY_KCP },
          finalizers: [FINALIZER.kyma],
        },
      } as Kyma,
      FIELD_MANAGER.lifecycleManager,
    )
    .catch(async (error: unknown) => {
      if (isWorthAWarning(error)) await events.record(involvedOf(kyma), failedWriteEvent('UpdateSpecError', error));
      throw error;
    });
}
