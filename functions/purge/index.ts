// purge: the steps of a call, in order, [the file that takes each].
// shared/host/invoke.ts runs every call: the object key from the event, one call per object at a time in this instance,
// cached reads no older than the event (shared/kube/README.md), a thrown error → the status the broker retries on.
// A Kyma event (add, update, delete, resync.due) or a Manifest deletion:
//   1. the Kyma (the event's, or the Manifest's by its kyma-name label; watch cache); not being deleted: done
//                                                                                   [shared/kube/kyma-of.ts, here]
//   2. its Manifests, and what of it is left on the runtime; no kubeconfig Secret: the runtime steps are skipped;
//      an unusable one holds the chain before them (Deleting status naming it, 503)            [here, runtime-view.ts]
//   3. PURE: the next step of the deletion chain, in upstream order                                   [decide.ts]
//   4. the runtime steps (catalog copies, catalog CRDs, runtime Kyma, Kyma CRD) back to back    [here, runtime-view.ts]
//   5. past the grace period: finalizers of module CRs stuck in deletion stripped, with a Warning Event  [strip.ts]
//   6. the step taken (state Deleting, Manifests deleted, waiting for them, our finalizer dropped), with its Event;
//      503 until the finalizer is dropped; nothing of ours left and the Kyma still there: KymaDeletionStuck
//                                                                                             [here, status.ts]
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { deletionStepEvent, deletionStuckEvent } from '../../shared/core/state-events.ts';
import { EventRecorder, involvedOf, recordEvent } from '../../shared/kube/events.ts';
import { listAll } from '../../shared/kube/list.ts';
import { inClusterAccess, RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { InvalidEventError, NotYetReadyError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, RESYNC_DUE } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { nextDeletionStep, requeueReasonOf, type DeletionStep, type DeletionView } from './decide.ts';
import { markStep } from '../../shared/host/steps.ts';
import { deleteCopies, deleteRemoteKyma, deleteRuntimeCrd, observeRuntime, setRemoteKymaDeleting } from './runtime-view.ts';
import { stripStuckFinalizers } from './strip.ts';
import { kymaNameOf } from '../../shared/kube/kyma-of.ts';
import { setKymaDeletionStatus } from './status.ts';

export const NAME = 'purge';

/** Deletion steps on the runtime that one call takes back to back. */
const RUNTIME_STEPS = new Set<DeletionStep['step']>(['SetRuntimeKymaStateDeleting', 'DeleteCatalogCopies', 'DeleteRuntimeCrd', 'DeleteRemoteKyma']);

/** Deletion steps that need nothing from the runtime. */
const KCP_STEPS = new Set<DeletionStep['step']>(['SetKymaStateDeleting', 'DeleteManifests']);

export const runtimeUnusableMessage = (reason: string) =>
  `the runtime cannot be cleaned up: ${reason}; fix the kubeconfig Secret, or delete it to let the Kyma go without cleaning up the runtime`;

/** A Kyma with a deletionTimestamp: one step of the deletion chain per call (see decide.ts), then a retry. */
export function purge(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.kubeconfigs]);
  const runtimes = new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands);
  const events = new EventRecorder(given.kcp, NAME);
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    async handle({ event, key, log }) {
      if (key.kind !== 'Kyma' && key.kind !== 'Manifest') throw new InvalidEventError(`${NAME} handles Kyma and Manifest events, not ${key.kind}`);
      const kymaName = await kymaNameOf(deps.kcp, key, event);
      if (!kymaName) return undefined; // a Manifest gone without a trace of its Kyma: nothing left to purge for it
      const kyma = await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name: kymaName });
      if (!kyma?.metadata.deletionTimestamp) return undefined;
      const manifests = await listAll<Manifest>(deps.kcp, API_VERSION, 'Manifest', { namespace: key.namespace, labelSelector: `${LABEL.kymaName}=${kymaName}` });
      // Single-cluster mode (ADR 21): the module CRs live in the control plane, which has no runtime Kyma, catalog copies
      // or runtime CRDs to remove (its own must stay).
      const inCluster = isInClusterKyma(kyma);
      // As upstream: only a missing kubeconfig Secret lets the chain go on without the runtime; an unusable one (refused,
      // not a kubeconfig, several Secrets) holds the deletion at the first runtime step, saying why and the way out.
      const access = inCluster ? (deps.config.inCluster ? inClusterAccess(given.kcp) : { missing: 'in-cluster installs disabled' })
        : await runtimes.forKyma(key.namespace, kymaName).catch((e: unknown) => ({ unusable: e instanceof Error ? e.message : String(e) }));
      const unusable = 'unusable' in access ? runtimeUnusableMessage(access.unusable) : undefined;
      const runtime = 'client' in access ? { client: access.client, scope: access.scope } : undefined;
      const observe = async (): Promise<DeletionView> => {
        const observed = runtime && (inCluster ? { crds: [], remoteKyma: false } : await observeRuntime(runtime.client, runtime.scope));
        return { kyma, manifests, now: Date.now(), gracePeriodMs: deps.config.purgeGracePeriodMs, ...(observed ? { runtime: observed } : {}) };
      };
      // The first step needs only the KCP: a deleting Kyma is Deleting whatever its runtime does.
      const first = nextDeletionStep({ kyma, manifests, now: Date.now(), gracePeriodMs: deps.config.purgeGracePeriodMs }, false);
      if (first?.step === 'SetKymaStateDeleting') {
        await execute(deps.kcp, kyma, first, runtime);
        await events.record(involvedOf(kyma), deletionStepEvent(first));
        throw new NotYetReadyError(`Kyma deletion continues after ${first.step}`, requeueReasonOf(first));
      }
      let view = await observe().catch(async (error: unknown) => {
        if (!isRuntimeUnreachable(error)) throw error;
        // The runtime cannot be read: the KCP's part goes on (its Manifests are deleted, so their modules learn early),
        // and the Kyma says what it waits for.
        runtimes.evict(key.namespace, kymaName);
        if (first?.step === 'DeleteManifests') await execute(deps.kcp, kyma, first, runtime);
        const waiting = `waiting for the runtime to clean it up: runtime of Kyma ${kymaName} unreachable: ${error instanceof Error ? error.message : String(error)}`;
        await setKymaDeletionStatus(deps.kcp, kyma, waiting);
        throw new NotYetReadyError(waiting, 'sync_context_retrieval');
      });
      let step = nextDeletionStep(view, false);
      if (unusable && step && !KCP_STEPS.has(step.step)) {
        await setKymaDeletionStatus(deps.kcp, kyma, unusable);
        throw new NotYetReadyError(unusable, 'kyma_under_deletion_with_no_access_secret');
      }
      // The runtime's steps need no waiting (a CRD being deleted counts as gone): one call takes them all, instead of one
      // retry each, so a stuck module is named within seconds of the deletion.
      const take = async (done: DeletionStep) => {
        await execute(deps.kcp, kyma, done, runtime);
        log.info({ step: done.step }, `Kyma deletion: ${done.step}`);
        await events.record(involvedOf(kyma), deletionStepEvent(done));
      };
      for (let taken = 0; step && RUNTIME_STEPS.has(step.step) && taken < RUNTIME_STEPS.size + 2; taken++) {
        await take(step);
        step = nextDeletionStep((view = await observe()), false);
      }
      if (step?.step === 'PurgeModuleCrFinalizers') markStep('manifest_crs_cleanup');
      if (step?.step === 'PurgeModuleCrFinalizers' && runtime && !(await purgeStuck(deps, kyma, manifests, runtime, log))) step = nextDeletionStep(view, true);
      if (!step) {
        // Nothing of ours left to do, yet the Kyma stays: someone else's finalizer holds it (upstream's KymaDeletionStuck).
        await events.record(involvedOf(kyma), deletionStuckEvent(kyma.metadata.finalizers ?? []));
        return undefined;
      }
      if (step.step === 'PurgeModuleCrFinalizers') return undefined;
      await take(step);
      if (step.step === 'DropKymaFinalizer') return undefined;
      throw new NotYetReadyError(step.step === 'WaitForManifests' ? step.message : `Kyma deletion continues after ${step.step}`, requeueReasonOf(step));
    },
  };
}

async function execute(kcp: KubeClient, kyma: Kyma, step: DeletionStep, runtime: { client: KubeClient; scope: RuntimeScope } | undefined): Promise<void> {
  const { name, namespace = '' } = kyma.metadata;
  markStep(requeueReasonOf(step));
  switch (step.step) {
    case 'SetKymaStateDeleting': return setKymaDeletionStatus(kcp, kyma, 'waiting for modules to be deleted');
    case 'DeleteManifests': for (const m of step.names) await kcp.delete({ apiVersion: API_VERSION, kind: 'Manifest', namespace, name: m }); return;
    case 'DeleteCatalogCopies': if (runtime) await deleteCopies(runtime.client, runtime.scope, step.copies); return;
    case 'DeleteRuntimeCrd': if (runtime) await deleteRuntimeCrd(runtime.client, step.name); return;
    case 'SetRuntimeKymaStateDeleting': if (runtime) await setRemoteKymaDeleting(runtime.client, runtime.scope); return;
    case 'DeleteRemoteKyma': if (runtime) await deleteRemoteKyma(runtime.client, runtime.scope); return;
    case 'WaitForManifests': return setKymaDeletionStatus(kcp, kyma, step.message);
    case 'DropKymaFinalizer':
      await kcp.mergePatch({ apiVersion: API_VERSION, kind: 'Kyma', namespace, name }, { metadata: { finalizers: step.finalizers, resourceVersion: kyma.metadata.resourceVersion } });
      return;
    case 'PurgeModuleCrFinalizers': return;
  }
}

async function purgeStuck(deps: FunctionDeps, kyma: Kyma, manifests: Manifest[], runtime: { client: KubeClient; scope: RuntimeScope }, log: Logger): Promise<boolean> {
  const removed = await stripStuckFinalizers(runtime.client, manifests, deps.config.purgeSkip, runtime.scope);
  if (!removed.length) return false;
  const message = `grace period of ${deps.config.purgeGracePeriodMs / 1000} s passed: finalizers force-removed from ${removed.join('; ')}`;
  log.warn({ kyma: kyma.metadata.name, removed }, message);
  await recordEvent(deps.kcp, involvedOf(kyma), 'Warning', 'PurgedModuleCrFinalizers', message, NAME);
  return true;
}
