// What each step of purge does (decide.ts chooses the step: nextDeletionStep), and the order a call takes them in.
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { deletionStepEvent, deletionStuckEvent } from '../../shared/core/state-events.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { NotYetReadyError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { markStep } from '../../shared/host/steps.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { involvedOf, recordEvent, type EventRecorder } from '../../shared/kube/events.ts';
import { listAll } from '../../shared/kube/list.ts';
import { inClusterAccess, type RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { nextDeletionStep, requeueReasonOf, stillPurging, type DeletionStep, type DeletionView } from './decide.ts';
import {
  deleteCopies,
  deleteRemoteKyma,
  deleteRuntimeCrd,
  observeRuntime,
  setRemoteKymaDeleting,
} from './runtime-view.ts';
import { setKymaDeletionStatus } from './status.ts';
import { stripStuckFinalizers } from './strip.ts';

/** What every call shares. */
export interface PurgeDeps {
  deps: FunctionDeps;
  live: KubeClient;
  runtimes: RuntimeClients;
  events: EventRecorder;
}

type Runtime = { client: KubeClient; scope: RuntimeScope };

/** Deletion steps on the runtime that one call takes back to back. */
const RUNTIME_STEPS = new Set<DeletionStep['step']>([
  'SetRuntimeKymaStateDeleting',
  'DeleteCatalogCopies',
  'DeleteRuntimeCrd',
  'DeleteRemoteKyma',
]);

/** Deletion steps that need nothing from the runtime. */
const KCP_STEPS = new Set<DeletionStep['step']>(['SetKymaStateDeleting', 'DeleteManifests']);

export const runtimeUnusableMessage = (reason: string) =>
  `the runtime cannot be cleaned up: ${reason}; fix the kubeconfig Secret, or delete it to let the Kyma go without cleaning up the runtime`;

type StepOf<S extends DeletionStep['step']> = Extract<DeletionStep, { step: S }>;
type Take<S extends DeletionStep['step']> = (
  kcp: KubeClient,
  kyma: Kyma,
  step: StepOf<S>,
  runtime: Runtime | undefined,
) => Promise<void>;
/** A step on the runtime: nothing to do without one (its Secret is gone). */
const onRuntime =
  <S extends DeletionStep['step']>(act: (runtime: Runtime, step: StepOf<S>) => Promise<unknown>): Take<S> =>
  async (_, __, step, runtime) => {
    if (runtime) await act(runtime, step);
  };

/** The KCP Kyma itself: its finalizer's drop, and the live read before each runtime step. */
const refOf = (kyma: Kyma) => ({
  apiVersion: API_VERSION,
  kind: 'Kyma',
  namespace: kyma.metadata.namespace ?? '',
  name: kyma.metadata.name,
});

/** What each step does. */
const STEPS: { [S in DeletionStep['step']]: Take<S> } = {
  SetKymaStateDeleting: (kcp, kyma) => setKymaDeletionStatus(kcp, kyma, 'waiting for modules to be deleted'),
  DeleteManifests: async (kcp, kyma, { names }) => {
    for (const name of names)
      await kcp.delete({ apiVersion: API_VERSION, kind: 'Manifest', namespace: kyma.metadata.namespace ?? '', name });
  },
  DeleteCatalogCopies: onRuntime((r, { copies }) => deleteCopies(r.client, r.scope, copies)),
  DeleteRuntimeCrd: onRuntime((r, { name }) => deleteRuntimeCrd(r.client, name)),
  SetRuntimeKymaStateDeleting: onRuntime((r) => setRemoteKymaDeleting(r.client, r.scope)),
  DeleteRemoteKyma: onRuntime((r) => deleteRemoteKyma(r.client, r.scope)),
  WaitForManifests: (kcp, kyma, { message }) => setKymaDeletionStatus(kcp, kyma, message),
  DropKymaFinalizer: async (kcp, kyma, { finalizers }) => {
    await kcp.mergePatch(refOf(kyma), { metadata: { finalizers, resourceVersion: kyma.metadata.resourceVersion } });
  },
  PurgeModuleCrFinalizers: async () => undefined,
};

async function execute(kcp: KubeClient, kyma: Kyma, step: DeletionStep, runtime: Runtime | undefined): Promise<void> {
  markStep(requeueReasonOf(step));
  await (STEPS[step.step] as Take<DeletionStep['step']>)(kcp, kyma, step, runtime);
}

/** One call on a deleting Kyma (ADR 8): the first step needs only the KCP; then the runtime is observed (unreachable:
 * held after the Manifests' deletion; an unusable Secret: before the first runtime step, ADR 35), the runtime's steps
 * run back to back, and the step taken gets its Event and a retry until our finalizer is dropped. */
export async function continueDeletion(on: PurgeDeps, kyma: Kyma, log: Logger): Promise<void> {
  const { deps, events } = on;
  const { name, namespace = '' } = kyma.metadata;
  const manifests = await listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest', {
    namespace,
    labelSelector: `${LABEL.kymaName}=${name}`,
  });
  const { runtime, unusable } = await accessOf(on, kyma);
  const gracePeriodMs = deps.config.purgeGracePeriodMs;
  const take = async (step: DeletionStep) => {
    await execute(deps.kcp, kyma, step, runtime);
    log.info({ step: step.step }, `Kyma deletion: ${step.step}`);
    await events.record(involvedOf(kyma), deletionStepEvent(step));
  };
  const first = nextDeletionStep({ kyma, manifests, now: Date.now(), gracePeriodMs }, false);
  if (first?.step === 'SetKymaStateDeleting') {
    await take(first);
    throw new NotYetReadyError(`Kyma deletion continues after ${first.step}`, requeueReasonOf(first));
  }
  const observe = async (): Promise<DeletionView> => {
    // Single-cluster mode (ADR 21): the control plane has no runtime Kyma, catalog copies or runtime CRDs to remove.
    const observed =
      runtime &&
      (isInClusterKyma(kyma) ? { crds: [], remoteKyma: false } : await observeRuntime(runtime.client, runtime.scope));
    return { kyma, manifests, now: Date.now(), gracePeriodMs, ...(observed ? { runtime: observed } : {}) };
  };
  let view = await observe().catch(async (error: unknown) => {
    if (!isRuntimeUnreachable(error)) throw error;
    // The runtime cannot be read: the KCP's part goes on (its Manifests are deleted, so their modules learn early),
    // and the Kyma says what it waits for.
    on.runtimes.evict(namespace, name);
    if (first?.step === 'DeleteManifests') await execute(deps.kcp, kyma, first, runtime);
    const waiting = `waiting for the runtime to clean it up: runtime of Kyma ${name} unreachable: ${error instanceof Error ? error.message : String(error)}`;
    await setKymaDeletionStatus(deps.kcp, kyma, waiting);
    throw new NotYetReadyError(waiting, 'sync_context_retrieval');
  });
  let step = nextDeletionStep(view, false);
  if (unusable && step && !KCP_STEPS.has(step.step)) {
    await setKymaDeletionStatus(deps.kcp, kyma, unusable);
    throw new NotYetReadyError(unusable, 'kyma_under_deletion_with_no_access_secret');
  }
  // The runtime's steps need no waiting (a CRD being deleted counts as gone): one call takes them all, instead of one
  // retry each, so a stuck module is named within seconds of the deletion. Each first confirms the Kyma live (ADR 70).
  for (let taken = 0; step && RUNTIME_STEPS.has(step.step) && taken < RUNTIME_STEPS.size + 2; taken++) {
    if (!stillPurging(kyma, await on.live.get<Kyma>(refOf(kyma))))
      return log.info({ step: step.step }, 'Kyma deletion finished by another call: the runtime is left alone');
    await take(step);
    step = nextDeletionStep((view = await observe()), false);
  }
  if (step?.step === 'PurgeModuleCrFinalizers') markStep('manifest_crs_cleanup');
  if (step?.step === 'PurgeModuleCrFinalizers' && runtime && !(await purgeStuck(deps, kyma, manifests, runtime, log)))
    step = nextDeletionStep(view, true);
  // Nothing of ours left to do, yet the Kyma stays: someone else's finalizer holds it (upstream's KymaDeletionStuck).
  if (!step) {
    await events.record(involvedOf(kyma), deletionStuckEvent(kyma.metadata.finalizers ?? []));
    return;
  }
  if (step.step === 'PurgeModuleCrFinalizers') return;
  await take(step);
  if (step.step === 'DropKymaFinalizer') return;
  throw new NotYetReadyError(
    step.step === 'WaitForManifests' ? step.message : `Kyma deletion continues after ${step.step}`,
    requeueReasonOf(step),
  );
}

/** As upstream: only a missing kubeconfig Secret lets the chain go on without the runtime; an unusable one (refused,
 * not a kubeconfig, several Secrets) holds the deletion at the first runtime step, saying why and the way out. */
async function accessOf(
  { deps, live, runtimes }: PurgeDeps,
  kyma: Kyma,
): Promise<{ runtime?: Runtime; unusable?: string }> {
  const access = isInClusterKyma(kyma)
    ? deps.config.inCluster
      ? inClusterAccess(live)
      : { missing: 'in-cluster installs disabled' }
    : await runtimes
        .forKyma(kyma.metadata.namespace ?? '', kyma.metadata.name)
        .catch((e: unknown) => ({ unusable: e instanceof Error ? e.message : String(e) }));
  if ('unusable' in access) return { unusable: runtimeUnusableMessage(access.unusable) };
  return 'client' in access ? { runtime: { client: access.client, scope: access.scope } } : {};
}

async function purgeStuck(
  deps: FunctionDeps,
  kyma: Kyma,
  manifests: Manifest[],
  runtime: Runtime,
  log: Logger,
): Promise<boolean> {
  const removed = await stripStuckFinalizers(runtime.client, manifests, deps.config.purgeSkip, runtime.scope);
  if (!removed.length) return false;
  const message = `grace period of ${deps.config.purgeGracePeriodMs / 1000} s passed: finalizers force-removed from ${removed.join('; ')}`;
  log.warn({ kyma: kyma.metadata.name, removed }, message);
  await recordEvent(deps.kcp, involvedOf(kyma), 'Warning', 'PurgedModuleCrFinalizers', message, 'purge');
  return true;
}
