// aggregate-status: a Kyma's Manifests (and, on Kyma events, its runtime side) → the Kyma's status, mirrored to the
// runtime Kyma. The order of steps is decide.ts (ADR 45); a Kyma's Manifest events are one batch (ADR 26: batchOf);
// shared/host/invoke.ts runs every call.
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { listAll } from '../../shared/kube/list.ts';
import { InvalidEventError, NotYetReadyError } from '../../shared/host/errors.ts';
import {
  APISERVER_ADD,
  APISERVER_DELETE,
  APISERVER_UPDATE,
  RESYNC_DUE,
  fullCheckOf,
  isDriftCheck,
  type EventAttributes,
} from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import type { ObjectKey } from '../../shared/host/events.ts';
import { aggregateSteps, awaitsRuntimeKyma, ignoreReason, runtimeSideChanged, type AggregateStep } from './decide.ts';
import { kymaKeyOf, kymaNameOf, serialByKyma } from '../../shared/kube/kyma-of.ts';
import { inClusterSync, runtimeView, secondPass, syncRuntime, type SideOutcome } from './runtime-sync.ts';
import { QuietKymas, type KymaSeen } from './quiet.ts';
import { catalogNeverPushed } from './catalog.ts';
import { versionsOf } from '../../shared/kube/versions.ts';
import { catalogVersions, unchangedSinceLastCheck } from './quiet-check.ts';
import { kymaDriftChecks } from '../../shared/host/metrics.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { SyncMemo } from '../../shared/kube/sync-memo.ts';
import { OwnWrites } from '../../shared/kube/own-writes.ts';
import { OwnWatermarks } from '../../shared/kube/own-watermarks.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { currentStep } from '../../shared/host/steps.ts';
import { ModulesOnTheirWay } from './settle.ts';
import { mirrorStatus, reportWatcherRemoved, writeKymaStatus, type Reporting } from './report.ts';
import type { Logger } from '../../shared/host/logger.ts';
import type { RequeueReason } from '../../shared/core/upstream-names.ts';

export const NAME = 'aggregate-status';
/** How long a call waits for the Kyma's running call before it runs beside it (ADR 65). */
const SERIAL_WAIT_MS = 2_000;

/** Manifest or Kyma changed → the Kyma's status: module entries, state, conditions, lastOperation. On Kyma events
 * (and resync) also the runtime side: lifecycle CRDs (CRDsSync) and the module catalog (ModuleCatalog). */
export function aggregateStatus(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [
    CACHED.kymas,
    CACHED.manifests,
    CACHED.templates,
    CACHED.releaseMetas,
    CACHED.kubeconfigs,
  ]);
  const runtimes = new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands);
  const onTheirWay = new ModulesOnTheirWay();
  const pushed = new SyncMemo(deps.config.driftPeriodMinutes * 60_000);
  const events = new EventRecorder(given.kcp, NAME);
  // The Kyma is read from a cache that has this instance's last status write (ADR 62): no 409 on a stale Kyma.
  const marks = new OwnWatermarks();
  const written = new OwnWrites(undefined, marks.noting(API_VERSION, 'Kyma'));
  /** The Kyma the event is about (a Manifest's by its label), from the watch cache once it has our last status write. */
  const kymaOf = async (key: ObjectKey, event: EventAttributes): Promise<Kyma | undefined> => {
    const name = await kymaNameOf(deps.kcp, key, event);
    if (!name) return undefined;
    const ref = { apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name };
    marks.require(API_VERSION, 'Kyma', ref);
    return deps.kcp.get<Kyma>(ref);
  };
  const manifestsOf = (kyma: Kyma) =>
    listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest', {
      namespace: kyma.metadata.namespace ?? '',
      labelSelector: `${LABEL.kymaName}=${kyma.metadata.name}`,
    });
  /** The runtime side of a Kyma event: the runtime's CRDs, catalog and runtime Kyma kept in step (or, in-cluster, none). */
  const runtimeSideOf = (kyma: Kyma, inCluster: boolean, force: Freshness | false) =>
    inCluster
      ? inClusterSync(deps.config.inCluster)
      : syncRuntime(deps.kcp, runtimes, kyma, pushed, force, deps.config, awaitsRuntimeKyma(kyma, inCluster));
  const quiet = new QuietKymas();
  const driftPeriodMs = deps.config.driftPeriodMinutes * 60_000;
  /** A drift check that finds nothing moved since the last one found nothing to do (ADR 93), counted either way. */
  const quietly = async (kyma: Kyma) => {
    const unchanged = await unchangedSinceLastCheck({ kcp: deps.kcp, runtimes, pushed, quiet, driftPeriodMs }, kyma);
    kymaDriftChecks.inc({ found: unchanged ? 'unchanged' : 'checked' });
    return unchanged;
  };
  /** The Kyma with its runtime side synced (Kyma events), read again after it (seconds on a busy runtime): writes
   * meanwhile are no 409 (ADR 54); resolved from the runtime Kyma meanwhile, synced again for the Kyma as it is now
   * (ADR 82). */
  const withRuntimeSide = async (
    key: ObjectKey,
    event: EventAttributes,
    seen: Kyma,
    inCluster: boolean,
    force: Freshness | false,
  ): Promise<{ kyma: Kyma | undefined; side: SideOutcome | undefined }> => {
    if (key.kind !== 'Kyma') return { kyma: seen, side: undefined };
    let side = await runtimeSideOf(seen, inCluster, force);
    let kyma = await kymaOf(key, event);
    if (kyma && runtimeSideChanged(seen, kyma, inCluster)) {
      side = secondPass(side, await runtimeSideOf(kyma, inCluster, force));
      kyma = await kymaOf(key, event);
    }
    return { kyma, side };
  };
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    // Changes of a Kyma's Manifests are one unit of work, as for upstream's Kyma work queue (ADR 26): a burst of them
    // is aggregated in one or two status writes, not one each: an idle batch settles for a second while a module of
    // the Kyma is on its way. The last one settling, or one in trouble or being deleted, is reported at once (ADR 67).
    batchOf: (event, key) => {
      const kyma = key.kind === 'Manifest' && event.type !== RESYNC_DUE ? kymaKeyOf(event, key) : undefined;
      return kyma ? { batch: kyma, settleMs: onTheirWay.settleMs(kyma, key.name, event) } : undefined;
    },
    // One call per Kyma at a time, as upstream's Kyma work queue has it: a Kyma event's call and its Manifests' batch
    // both write the Kyma's status, and side by side the later one met a 409. A slow runtime side holds the Kyma's
    // Manifest reports no longer than SERIAL_WAIT_MS (ADR 65).
    serialOf: serialByKyma(SERIAL_WAIT_MS),
    async handle({ event, key, log }) {
      if (key.kind !== 'Kyma' && key.kind !== 'Manifest')
        throw new InvalidEventError(`${NAME} handles Kyma and Manifest events, not ${key.kind}`);
      const seen = await kymaOf(key, event);
      const ignored = ignoreReason(seen, Boolean(seen && key.kind === 'Kyma' && written.isEcho(event, seen)));
      if (ignored || !seen) {
        log.debug({ step: 'Ignore', why: ignored?.why }, `${NAME}: status left alone`);
        return undefined;
      }
      const inCluster = isInClusterKyma(seen);
      // A drift check of a Kyma whose last one found nothing to do, where nothing moved since, ends here (ADR 93).
      const drift = key.kind === 'Kyma' && isDriftCheck(event) && !inCluster && !deps.config.runtimeImagePullSecret;
      if (drift && (await quietly(seen))) return undefined;
      const catalog = drift ? await catalogVersions(deps.kcp, seen) : undefined;
      const force = fullCheckOf(event);
      const { kyma, side } = await withRuntimeSide(key, event, seen, inCluster, force);
      if (!kyma || ignoreReason(kyma, false)) return undefined;
      const manifests = await manifestsOf(kyma);
      const pendingStep = side?.pending ? currentStep() : undefined;
      const to = { kcp: deps.kcp, events, written, log };
      const call: AggregateCall = { to, kyma, stored: kyma, side, pendingStep, force, runtimes, pushed };
      const now = new Date().toISOString();
      for (const step of aggregateSteps({ kyma, manifests, runtimeSide: runtimeView(side), inCluster, now })) {
        await take(call, step, log.child({ step: step.step }));
      }
      if (catalog !== undefined) rememberQuiet(quiet, call, { catalog, manifests: versionsOf(manifests) });
      return undefined;
    },
  };
}

/** One call's Kyma, what it wrote, and what the runtime side found. */
interface AggregateCall {
  to: Reporting;
  kyma: Kyma;
  /** The Kyma as stored after the status step. */
  stored: Kyma;
  side: SideOutcome | undefined;
  pendingStep: RequeueReason | undefined;
  /** The runtime Kyma's resourceVersion the mirror found or made (ADR 93). */
  mirrored?: string | undefined;
  /** Whether (and how) the runtime side is read whatever this instance remembers. */
  force: Freshness | false;
  runtimes: RuntimeClients;
  /** What this instance pushed to runtimes (ADR 25). */
  pushed: SyncMemo;
}

async function take(call: AggregateCall, step: AggregateStep, log: Logger): Promise<void> {
  const to = { ...call.to, log };
  switch (step.step) {
    case 'Ignore':
      return;
    case 'ReportWatcherRemoved':
      return reportWatcherRemoved(to, call.kyma, call.side?.upstreamWatcher ?? []);
    case 'WriteStatus':
      call.stored = await writeKymaStatus(to, call.kyma, step.status);
      return;
    case 'MirrorStatus': {
      // The runtime Kyma mirrors every status change at once (also one caused by a Manifest event); Kyma events and
      // the resync repair a mirror that failed.
      const runtime = step.lookUpRuntime ? await runtimeClient(call.runtimes, call.kyma) : call.side?.runtime;
      if (!runtime || !call.stored.status) return;
      const onlyOurs = catalogNeverPushed(call.kyma);
      const how = { force: call.force, statusWritten: step.statusWritten, onlyOurs, mustMirror: !step.lookUpRuntime };
      call.mirrored = await mirrorStatus(to, call.kyma, runtime, call.stored.status, call.pushed, how);
      return;
    }
    case 'RetryPending':
      throw new NotYetReadyError(step.message, call.pendingStep);
  }
}

/** A drift check that ended with the Kyma Ready, its runtime side in step and its status mirrored, nothing pending and
 * no upstream watcher removed, is remembered with what it saw (ADR 93); any other forgets the Kyma. */
function rememberQuiet(quiet: QuietKymas, call: AggregateCall, kcp: Pick<KymaSeen, 'manifests' | 'catalog'>): void {
  const runtime = call.side?.runtime?.client;
  const { uid, resourceVersion } = call.stored.metadata;
  if (!runtime || !uid) return;
  const side = call.side;
  const clean = side && !side.pending && !side.upstreamWatcher && !('unreachable' in side.sync);
  if (!clean || call.stored.status?.state !== 'Ready' || !call.mirrored || !resourceVersion)
    return quiet.forget(runtime, uid);
  quiet.remember(runtime, uid, { ...kcp, kyma: resourceVersion, runtimeKyma: call.mirrored });
}

async function runtimeClient(
  runtimes: RuntimeClients,
  kyma: Kyma,
): Promise<{ client: KubeClient; scope: RuntimeScope } | undefined> {
  const access = await runtimes.forKyma(kyma.metadata.namespace ?? '', kyma.metadata.name).catch(() => undefined);
  return access && 'client' in access ? access : undefined;
}
