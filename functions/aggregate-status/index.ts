// aggregate-status: the steps of a call, in order, [the file that takes each].
// shared/host/invoke.ts runs every call: the object key from the event, one call per object at a time in this instance,
// cached reads no older than the event (shared/kube/README.md), a thrown error → the status the broker retries on.
// The Manifest events of one Kyma are one batch: calls arriving while one runs share one follow-up, an idle batch
// waits 1 s for more (ADR 26)                                                  [here: batchOf, shared/host/batches.ts]
// A Kyma or Manifest event (add, update, delete), resync.due for a Kyma:
//   1. the Kyma (the event's, or the Manifest's by its kyma-name label; watch cache); gone, deleting or
//      skip-reconciliation: done; the echo of our own status write: done                [shared/kube/kyma-of.ts, here]
//   2. its Manifests (watch cache)                                                                         [here]
//   3. Kyma events only: the runtime side — lifecycle CRDs, module catalog copies, image pull Secret — skipped
//      when the same went to that runtime within the drift period, unless the event checks drift; upstream's SKR
//      watcher removed once per runtime and instance (ADR 40)      [runtime-sync.ts, catalog.ts, upstream-watcher.ts]
//   4. PURE: the status — module entries, state, conditions, lastOperation                            [decide.ts]
//   5. written when it changed, guarded by the Kyma's resourceVersion; StateChanged and MetricsError Events when the
//      state moved, PatchStatus when the write failed                                                [report.ts]
//   6. the status mirrored to the runtime Kyma (Kyma events, or when it changed); StatusSynchronization when that
//      failed                                                                               [report.ts, mirror.ts]
//   7. the runtime side still pending: 503, retried                                                        [here]
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { listAll } from '../../shared/kube/list.ts';
import { InvalidEventError, NotYetReadyError } from '../../shared/host/errors.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, RESYNC_DUE, checksDrift, type EventAttributes } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { aggregate, ownedPart } from './decide.ts';
import { carriedKymaName, kymaNameOf } from '../../shared/kube/kyma-of.ts';
import { inClusterSync, syncRuntime } from './runtime-sync.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { SyncMemo } from '../../shared/kube/sync-memo.ts';
import { OwnWrites } from '../../shared/kube/own-writes.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { currentStep } from '../../shared/host/steps.ts';
import { mirrorStatus, reportWatcherRemoved, writeKymaStatus } from './report.ts';

export const NAME = 'aggregate-status';
/** How long a Kyma's status waits for more changes of its Manifests (ADR 26). */
const SETTLE_MS = 1_000;

/** A Manifest event that may wait for its siblings: not in trouble (Error, Warning), not being deleted. */
function canSettle(event: EventAttributes): boolean {
  const manifest = event.data as Partial<Manifest> | undefined;
  return event.type !== APISERVER_DELETE && !manifest?.metadata?.deletionTimestamp && !['Error', 'Warning'].includes(manifest?.status?.state ?? '');
}

/** Manifest or Kyma changed → the Kyma's status: module entries, state, conditions, lastOperation. On Kyma events
 * (and resync) also the runtime side: lifecycle CRDs (CRDsSync) and the module catalog (ModuleCatalog). */
export function aggregateStatus(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.templates, CACHED.releaseMetas, CACHED.kubeconfigs]);
  const runtimes = new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands);
  const pushed = new SyncMemo(deps.config.driftPeriodMinutes * 60_000);
  const events = new EventRecorder(given.kcp, NAME);
  const written = new OwnWrites();
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    // Changes of a Kyma's Manifests are one unit of work, as for upstream's Kyma work queue (ADR 26): a burst of them
    // is aggregated in one or two status writes, not one each: an idle batch settles for a second first. A Manifest
    // in trouble (Error, Warning) or being deleted is reported at once.
    batchOf: (event, key) => {
      const kyma = key.kind === 'Manifest' && event.type !== RESYNC_DUE ? carriedKymaName(event) : undefined;
      return kyma ? { batch: `${key.namespace}/${kyma}`, settleMs: canSettle(event) ? SETTLE_MS : 0 } : undefined;
    },
    async handle({ event, key, log }) {
      if (key.kind !== 'Kyma' && key.kind !== 'Manifest') throw new InvalidEventError(`${NAME} handles Kyma and Manifest events, not ${key.kind}`);
      const kymaName = await kymaNameOf(deps.kcp, key, event);
      if (!kymaName) return undefined;
      const kyma = await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name: kymaName });
      if (!kyma || kyma.metadata.deletionTimestamp || kyma.metadata.labels?.[LABEL.skipReconciliation] === 'true') return undefined;
      // The echo of our own guarded status write: its runtime side and mirror were done by the call that wrote it (ADR 25).
      if (key.kind === 'Kyma' && written.isEcho(event, kyma)) return undefined;
      const manifests = await listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest', { namespace: key.namespace, labelSelector: `${LABEL.kymaName}=${kymaName}` });
      const inCluster = isInClusterKyma(kyma);
      const runtimeSide = key.kind !== 'Kyma' ? undefined : inCluster ? inClusterSync(deps.config.inCluster)
        : await syncRuntime(deps.kcp, runtimes, kyma, pushed, checksDrift(event), deps.config);
      const to = { kcp: deps.kcp, events, written, log };
      if (runtimeSide?.upstreamWatcher) await reportWatcherRemoved(to, kyma, runtimeSide.upstreamWatcher);
      const pendingStep = runtimeSide?.pending ? currentStep() : undefined;
      const status = aggregate(kyma, manifests, new Date().toISOString(), runtimeSide?.sync);
      const changed = ownedPart(status) !== ownedPart(kyma.status);
      const stored = changed ? await writeKymaStatus(to, kyma, status) : kyma;
      // The runtime Kyma mirrors every status change at once (also one caused by a Manifest event); Kyma events and
      // the resync repair a mirror that failed.
      const runtime = runtimeSide ? runtimeSide.runtime : changed && !inCluster ? await runtimeClient(runtimes, kyma) : undefined;
      if (runtime && stored.status && !runtimeSide?.pending) await mirrorStatus(to, kyma, runtime, stored.status, pushed, checksDrift(event), Boolean(runtimeSide));
      if (runtimeSide?.pending) throw new NotYetReadyError(`runtime of Kyma ${kymaName}: ${runtimeSide.pending}`, pendingStep);
      return undefined;
    },
  };
}

async function runtimeClient(runtimes: RuntimeClients, kyma: Kyma): Promise<{ client: KubeClient; scope: RuntimeScope } | undefined> {
  const access = await runtimes.forKyma(kyma.metadata.namespace ?? '', kyma.metadata.name).catch(() => undefined);
  return access && 'client' in access ? access : undefined;
}
