// Writing what aggregate-status decided, and telling operators as upstream does (ADR 40): the Kyma status with its
// StateChanged and MetricsError Events (a failed write: PatchStatus), the mirror on the runtime Kyma (failed:
// StatusSynchronization), the removal of upstream's SKR watcher (UpstreamWatcherRemoved).
import type { Kyma, KymaStatus } from '../../shared/core/kyma.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import {
  failedWriteEvent,
  isWorthAWarning,
  metricsErrorEvent,
  stateChangeEvent,
} from '../../shared/core/state-events.ts';
import { API_VERSION, FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { involvedOf, type EventRecorder } from '../../shared/kube/events.ts';
import type { OwnWrites } from '../../shared/kube/own-writes.ts';
import type { SyncMemo } from '../../shared/kube/sync-memo.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { markStep } from '../../shared/host/steps.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { mirrorToRuntime, type MirrorHow } from './mirror.ts';

export interface Reporting {
  kcp: KubeClient;
  events: EventRecorder;
  written: OwnWrites;
  log: Logger;
}

/** The Kyma status, guarded by the resourceVersion read (a call that saw older Manifests cannot overwrite a newer
 * status: 409, retried); its Events when the state moved. Answers the Kyma as stored. */
export async function writeKymaStatus(to: Reporting, kyma: Kyma, status: KymaStatus): Promise<Kyma> {
  markStep('processing_kyma_state');
  const metadata = {
    name: kyma.metadata.name,
    namespace: kyma.metadata.namespace ?? '',
    resourceVersion: kyma.metadata.resourceVersion ?? '',
  };
  const stored = await to.kcp
    .apply<Kyma>(
      { apiVersion: API_VERSION, kind: 'Kyma', metadata, status: { ...status, lastTrace: currentTraceparent() } },
      FIELD_MANAGER.lifecycleManager,
      'status',
    )
    .catch(async (error: unknown) => {
      if (isWorthAWarning(error)) await to.events.record(involvedOf(kyma), failedWriteEvent('PatchStatus', error));
      throw error;
    });
  to.written.remember(stored);
  to.log.info({ kyma: kyma.metadata.name, state: status.state }, status.lastOperation?.operation ?? '');
  if (kyma.status?.state === status.state) return stored;
  await to.events.record(
    involvedOf(kyma),
    stateChangeEvent(kyma.status?.state, status.state, status.lastOperation?.operation),
  );
  await to.events.record(involvedOf(kyma), metricsErrorEvent(kyma));
  return stored;
}

/** The status mirrored to the runtime Kyma; a failure is a StatusSynchronization Warning, and thrown when `mustMirror`
 * (a Kyma event, whose retry repairs it), else only logged (the next Kyma event or resync repairs it). Answers what
 * `mirrorToRuntime` does: the runtime Kyma's resourceVersion when found or made so. */
export async function mirrorStatus(
  to: Reporting,
  kyma: Kyma,
  runtime: { client: KubeClient; scope: RuntimeScope },
  status: KymaStatus,
  memo: SyncMemo,
  how: MirrorHow & { mustMirror: boolean },
): Promise<string | undefined> {
  markStep('status_sync_to_remote');
  const key = `${kyma.metadata.namespace ?? ''}/${kyma.metadata.name}`;
  return mirrorToRuntime(runtime.client, runtime.scope, status, memo, key, how).catch(async (error: unknown) => {
    await to.events.record(involvedOf(kyma), failedWriteEvent('StatusSynchronization', error));
    if (how.mustMirror) throw error;
    to.log.warn({ kyma: kyma.metadata.name, err: String(error) }, 'status not mirrored to the runtime Kyma yet');
    return undefined;
  });
}

/** The removal of upstream's SKR watcher (ADR 40), in the log and as a Normal Event on the Kyma. */
export async function reportWatcherRemoved(to: Reporting, kyma: Kyma, removed: string[]): Promise<void> {
  to.log.info({ kyma: kyma.metadata.name, removed }, "upstream's SKR watcher removed from the runtime");
  await to.events.record(involvedOf(kyma), {
    type: 'Normal',
    reason: 'UpstreamWatcherRemoved',
    message: `removed upstream's SKR watcher from the runtime (the runtime watch replaces it): ${removed.join(', ')}`,
  });
}
