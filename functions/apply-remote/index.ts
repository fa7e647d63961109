// apply-remote: the steps of a call, in order, [the file that takes each]; context.ts is what every step gets.
// shared/host/invoke.ts runs every call: the object key from the event, one call per object at a time in this instance,
// cached reads no older than the event (shared/kube/README.md), a thrown error → the status the broker retries on.
// A Manifest event (add, update, delete, resync.due):
//   1. the Manifest (watch cache); gone or skip-reconciliation: done — gone, the other Manifests of its Kyma that
//      ship its objects get a resync.due [ownership.ts]; the echo of our own status write: done                  [here]
//   2. where it goes: the Kyma's runtime (its kubeconfig Secret → a client shared per kubeconfig) or, labelled
//      in-cluster, the KCP itself (ADR 21); none usable: Error status (a deleting Manifest: 503) [shared/kube/runtime-clients.ts]
//   3. one of
//      managed: false → managed-by labels off, finalizer off, Manifest deleted; one step per call   [unmanage.ts]
//      being deleted → wait for user CRs (the module kept current meanwhile), then the default CR, the resources,
//        our finalizers; one step per call; no runtime left: the finalizers go                     [uninstall.ts]
//      orphaned (its Kyma gone, or not referencing it for the grace period; confirmed live) → Error status [orphan.ts]
//      else install                                                                                 [install.ts]
//        a. missing finalizers stored first                                                       [finalizers.ts]
//        b. a retry while the module rolls out re-reads only its workload                           [rollout.ts]
//        c. else a full sync: the raw-manifest layer pulled (digest-checked, cached) or the Helm charts rendered
//           [layer.ts, charts.ts] → objects parsed and transformed (labels, images, KCP Secret data of the restricted
//           deployer, pull Secret, namespaces) [target.ts, images.ts, kcp-data.ts, shared/render/render.ts] → prune
//           what the new version dropped, apply; objects another module of the Kyma holds are left
//           [sync.ts, ownership.ts] → the default CR [default-cr.ts]
//        d. readiness of the manager workload                                         [shared/render/readiness.ts]
//        e. status written, guarded by the Manifest's resourceVersion; a Manifest deleted meanwhile gets what this
//           call applied withdrawn                                          [status.ts, write-status.ts, withdraw.ts]
//        f. still rolling out: 503, retried
//   4. runtime unreachable (Error status) or a transient failure: its client evicted, 503                  [here]
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import { inClusterAccess, RuntimeClients, type RuntimeAccess } from '../../shared/kube/runtime-clients.ts';
import { targetOf } from '../../shared/core/in-cluster.ts';
import { InvalidEventError, NotYetReadyError, TransientError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, RESYNC_DUE, checksDrift } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { OWN_RUNTIME } from '../../shared/core/runtime-scope.ts';
import { install } from './install.ts';
import { manifestOnRuntime } from '../../shared/render/render.ts';
import { LayerCache } from './layer.ts';
import { ChartRenderer } from './charts.ts';
import { Rollouts } from './rollout.ts';
import { helmBinary } from '../../shared/render/helm-template.ts';
import { uninstall } from './uninstall.ts';
import { writeStatus } from './write-status.ts';
import { orphanReason, parentKyma } from './orphan.ts';
import { isUnmanaged, unmanage } from './unmanage.ts';
import { handOver } from './ownership.ts';
import type { ApplyContext } from './context.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { OwnWrites } from '../../shared/kube/own-writes.ts';
import type { KcpSecrets } from './target.ts';
import { markStep } from '../../shared/host/steps.ts';

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
  const written = new OwnWrites();
  // The restricted deployer's Secrets take their data from the KCP's (target.ts, kcp-data.ts); read live by name.
  const kcpSecrets: KcpSecrets = { kcp: deps.kcp, namespace: deps.config.kcpNamespace, restrictedModules: deps.config.restrictedModules };
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    async handle({ event, key, log }) {
      if (key.kind !== 'Manifest') throw new InvalidEventError(`${NAME} handles Manifests, not ${key.kind}`);
      const manifest = await manifests.get<Manifest>({ apiVersion: API_VERSION, kind: 'Manifest', namespace: key.namespace, name: key.name });
      // Gone: objects it held that another module of its Kyma ships go to that module now (ADR 33).
      if (!manifest && event.type === APISERVER_DELETE) {
        // A hand-over that cannot be sent is left to the resync (the heirs' next check): never a failed call.
        const heirs = await handOver(manifests, given.sink, event).catch((error: unknown) => { log.warn({ err: String(error) }, 'hand-over not sent; the resync takes it'); return 0; });
        if (heirs) log.info({ heirs }, 'Manifest gone: the modules that ship its objects too take them over');
      }
      if (!manifest || manifest.metadata.labels?.[LABEL.skipReconciliation] === 'true') return undefined;
      // The echo of our own guarded status write: nothing changed but what this instance wrote (ADR 25).
      if (written.isEcho(event, manifest)) return undefined;
      const ctx: ApplyContext = { kcp: deps.kcp, manifests, layers, charts, rollouts, written, force: checksDrift(event), log, events, pullSecret: deps.config.runtimeImagePullSecret, kcpSecrets, scope: OWN_RUNTIME };
      const target = targetOf(manifest, deps.config.inCluster);
      const where = 'kyma' in target ? `runtime of Kyma ${target.kyma}` : 'control-plane cluster';
      let access: RuntimeAccess;
      markStep('sync_context_retrieval');
      try {
        access = 'kyma' in target ? await runtimes.forKyma(key.namespace, target.kyma) : 'inCluster' in target ? inClusterAccess(given.kcp) : { missing: target.refused };
      } catch (error) {
        const operation = `${where}: ${error instanceof Error ? error.message : String(error)}`;
        // A deleting Manifest waits for a usable kubeconfig (or for the Secret to go: then it lets go of the runtime),
        // Deleting and saying why — never the state it had before its deletion.
        await writeStatus(ctx, manifest, manifest.metadata.deletionTimestamp ? { state: 'Deleting', operation: `waiting to remove the module: ${operation}` } : { state: 'Error', operation });
        if (manifest.metadata.deletionTimestamp) throw new NotYetReadyError(operation, 'sync_context_retrieval');
        return undefined;
      }
      const runtime = 'client' in access ? access.client : undefined;
      if ('scope' in access) ctx.scope = access.scope;
      const onRuntime = manifestOnRuntime(manifest, ctx.scope);
      const forget = () => ('kyma' in target ? runtimes.evict(key.namespace, target.kyma) : undefined);
      try {
        if (isUnmanaged(manifest)) await unmanage(ctx, onRuntime, runtime);
        else if (manifest.metadata.deletionTimestamp) await uninstall(ctx, onRuntime, runtime);
        else if ('refused' in target) await writeStatus(ctx, manifest, { state: 'Error', operation: target.refused });
        else if (!runtime) await writeStatus(ctx, manifest, { state: 'Error', operation: `${where}: access secret not found (${'missing' in access ? access.missing : ''})` });
        else await installUnlessOrphan(ctx, onRuntime, runtime, given.kcp, deps.config.orphanGraceMs);
      } catch (error) {
        if (isRuntimeUnreachable(error)) {
          forget();
          const message = `${where} unreachable: ${error instanceof Error ? error.message : String(error)}`;
          await writeStatus(ctx, manifest, manifest.metadata.deletionTimestamp ? { state: 'Deleting', operation: `waiting to remove the module: ${message}` } : { state: 'Error', operation: message });
          throw new TransientError(message, error);
        }
        if (error instanceof TransientError) {
          forget();
          throw new TransientError(`${where}: ${error.message}`, error);
        }
        throw error;
      }
      return undefined;
    },
  };
}

/** An orphan gets an Error status instead of an install. The Kyma comes from the watch cache; a verdict of orphan is
 * confirmed with a live read, so a cache that lags a just-created Kyma never marks its Manifests. */
async function installUnlessOrphan(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient, live: KubeClient, graceMs: number): Promise<void> {
  // A Manifest of its own (labelled in-cluster, no Kyma) belongs to whoever created it: there is no Kyma to orphan it.
  if (!manifest.metadata.labels?.[LABEL.kymaName]) return install(ctx, manifest, runtime);
  const orphan = orphanReason(manifest, await parentKyma(ctx.kcp, manifest), Date.now(), graceMs) && orphanReason(manifest, await parentKyma(live, manifest), Date.now(), graceMs);
  if (orphan) markStep('manifest_orphaned');
  if (orphan) return writeStatus(ctx, manifest, { state: 'Error', operation: orphan });
  return install(ctx, manifest, runtime);
}
