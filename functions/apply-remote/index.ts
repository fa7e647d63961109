// apply-remote: a Manifest → its module's objects on the Kyma's runtime, and the Manifest's status (a Kyma's modules due
// for drift checks: one `modules.due`, modules-due.ts, ADR 94). Steps: decide.ts (ADR 45), steps.ts; shared/host/invoke.ts
// runs every call: one per object at a time (ADR 11), reads no older than the event (ADR 15), errors → broker retries.
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { inClusterAccess, RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { targetOf } from '../../shared/core/in-cluster.ts';
import { InvalidEventError } from '../../shared/host/errors.ts';
import {
  APISERVER_ADD,
  APISERVER_DELETE,
  APISERVER_UPDATE,
  MODULES_DUE,
  RESYNC_DUE,
  checksDrift,
  isDriftCheck,
  type ObjectKey,
} from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import { inTurnOf, type Invocation, type LifecycleFunction } from '../../shared/host/invoke.ts';
import { OWN_RUNTIME } from '../../shared/core/runtime-scope.ts';
import { LayerCache } from '../../shared/oci/layer.ts';
import { ChartRenderer } from '../../shared/render/charts.ts';
import { Rollouts } from './rollout.ts';
import { RolloutWatch } from './rollout-watch.ts';
import { helmBinary } from '../../shared/render/helm-template.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { OwnWrites } from '../../shared/kube/own-writes.ts';
import { OwnWatermarks } from '../../shared/kube/own-watermarks.ts';
import { ListedReads } from '../../shared/kube/listed-reads.ts';
import type { KcpSecrets } from '../../shared/render/target.ts';
import { nextApplyStep, OBSERVING } from './decide.ts';
import { take, type ApplyCall } from './steps.ts';
import { SettledModules } from './settled.ts';
import { announcer } from '../../shared/host/announce.ts';
import { checkModules } from './modules-due.ts';

export const NAME = 'apply-remote';

/** Manifest → the module's resources on the Kyma's runtime cluster (or, labelled in-cluster, on the control-plane
 * cluster itself: ADR 21), and the Manifest status. */
export function applyRemote(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.kubeconfigs]);
  /** Its Manifest from the watch cache, as fresh as the event (ADR 18); the check after applying reads it live. */
  const manifests = readingFromCaches(given, [CACHED.manifests]).kcp;
  const runtimes = new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands);
  const layers = new LayerCache(deps.registry);
  const charts = new ChartRenderer(layers, helmBinary(deps.config));
  const rollouts = new Rollouts();
  const events = new EventRecorder(given.kcp, NAME);
  // Its Manifest is read from a cache that has this instance's last write of it (ADR 62): no 409 on a stale status.
  const marks = new OwnWatermarks();
  const written = new OwnWrites(undefined, marks.noting(API_VERSION, 'Manifest'));
  const listed = new ListedReads();
  // The restricted deployer's Secrets take their data from the KCP's (target.ts, kcp-data.ts); read live by name.
  const kcpSecrets: KcpSecrets = {
    kcp: deps.kcp,
    namespace: deps.config.kcpNamespace,
    restrictedModules: deps.config.restrictedModules,
  };
  const pullSecret = deps.config.runtimeImagePullSecret;
  const context = {
    kcp: deps.kcp,
    manifests,
    layers,
    charts,
    rollouts,
    rolloutWatch: new RolloutWatch(deps.config.rolloutWatchMs),
    settled: new SettledModules(),
    written,
    announce: announcer(deps.sink, NAME, deps.config.announceUserWrites),
    events,
    kcpSecrets,
    pullSecret,
    scope: OWN_RUNTIME,
    driftPeriodMs: deps.config.driftPeriodMinutes * 60_000,
  };
  /** Where the Manifest's module goes, how to reach it and how to let its client go. */
  const runtimeOf = (namespace: string, target: ApplyCall['view']['target']) => ({
    where: target && 'kyma' in target ? `runtime of Kyma ${target.kyma}` : 'control-plane cluster',
    access: async () => {
      if (!target || 'refused' in target) return { missing: target?.refused ?? '' };
      return 'kyma' in target ? runtimes.forKyma(namespace, target.kyma) : inClusterAccess(given.kcp);
    },
    forget: () => (target && 'kyma' in target ? runtimes.evict(namespace, target.kyma) : undefined),
  });
  /** One Manifest's call: its steps (decide.ts) from the Manifest as read. */
  const reconcile = async ({ event, key, log }: Invocation): Promise<undefined> => {
    if (key.kind !== 'Manifest') throw new InvalidEventError(`${NAME} handles Manifests, not ${key.kind}`);
    const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: key.namespace, name: key.name };
    marks.require(API_VERSION, 'Manifest', ref);
    const manifest = await manifests.get<Manifest>(ref);
    const target = manifest && targetOf(manifest, deps.config.inCluster);
    const deleted = event.type === APISERVER_DELETE;
    // Its status writes are guarded and every call decides from the Manifest as read: a write by anyone else before
    // our own was read by the call that wrote ours, so a coalesced event ending in our echo is one too (ADR 83).
    const echo = Boolean(manifest && written.isEcho(event, manifest, 'newest'));
    const call: ApplyCall = {
      view: { manifest, target, deleted, echo },
      ctx: { ...context, force: checksDrift(event), ...(isDriftCheck(event) ? { listed } : {}), log },
      event,
      sink: given.sink,
      live: given.kcp,
      orphanGraceMs: deps.config.orphanGraceMs,
      ...runtimeOf(key.namespace, target),
    };
    for (let step = nextApplyStep(call.view); ; step = nextApplyStep(call.view)) {
      log.debug({ step: step.step }, `${NAME}: ${step.step}`);
      await take(call, step, log);
      if (!OBSERVING.has(step.step)) return undefined;
    }
  };
  const fn: LifecycleFunction = {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE, MODULES_DUE],
    async handle(invocation) {
      if (invocation.event.type !== MODULES_DUE) return reconcile(invocation);
      const inTurn = (key: ObjectKey, work: () => Promise<unknown>) => inTurnOf(fn, key, work);
      const done = await checkModules(invocation, { fn: NAME, check: reconcile, inTurn, sink: given.sink });
      invocation.log.debug(done, `${NAME}: modules checked`);
      return undefined;
    },
  };
  return fn;
}
