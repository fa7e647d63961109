// resolve-template: the steps of a call, in order, [the file that takes each].
// shared/host/invoke.ts runs every call: the object key from the event, one call per object at a time in this instance,
// cached reads no older than the event (shared/kube/README.md), a thrown error → the status the broker retries on.
// A ModuleTemplate or ModuleReleaseMeta event:
//   1. a mandatory ModuleReleaseMeta being deleted: its Manifests deleted, its finalizer dropped once they are
//      gone; nothing fans out                                                                     [mandatory.ts]
//   2. one background resync.due per Kyma that uses the change; a moved channel reaches the Kymas within the release
//      budget, and the resync's `release` tick sends the next budget's worth (ADR 30)    [fan-out.ts, release.ts]
// A Kyma event:
//   1. the Kyma (watch cache); gone, deleting or skip-reconciliation: done                              [here]
//   2. its finalizer and managed-by label, when missing (failed: UpdateSpecError)              [kyma-metadata.ts]
//   3. the module list that counts: the runtime Kyma's (created from the KCP spec once the Kyma is confirmed live;
//      read on drift checks, else recalled from a read within the drift period), the KCP spec in single-cluster
//      mode; a runtime that cannot be used: 503; a created runtime Kyma: Event RemoteInstallation, its metadata not
//      written: MetadataSynchronization                      [here: effectiveSpecOf, remote-kyma.ts, remote-memo.ts]
//   4. what resolution reads: ModuleReleaseMetas, ModuleTemplates, descriptors in the registry     [observe.ts]
//   5. the runtime's maintenance window                                                        [maintenance.ts]
//   6. PURE: per module channel (or pinned version) → version → template; visibility, downgrade and maintenance guards
//                                                                                       [resolve.ts, decide.ts]
//   7. status.modules[] resolution and specSource written when they changed; an allowed downgrade that starts:
//      Event ModuleDowngrade on the Kyma (ADR 38); reply modules.resolved                     [here, downgrade.ts]
import type { Kyma, SpecSource } from '../../shared/core/kyma.ts';
import { API_VERSION, FIELD_MANAGER, LABEL } from '../../shared/core/vocabulary.ts';
import { InvalidEventError, NotYetReadyError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, MODULES_RESOLVED, RESYNC_DUE, checksDrift, eventAbout } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { fanOut } from './fan-out.ts';
import { ensureKymaMetadata } from './kyma-metadata.ts';
import { mandatoryRelease } from './mandatory.ts';
import { effectiveSpec, type EffectiveSpec, type KymaExists, type StillWanted } from './remote-kyma.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { canonicalJson } from '../../shared/core/canonical.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { MaintenancePolicyFile } from './maintenance.ts';
import { observe } from './observe.ts';
import { RemoteKymaMemo } from './remote-memo.ts';
import { resolveModules, sameResolution } from './resolve.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { EventRecorder, involvedOf } from '../../shared/kube/events.ts';
import { downgradeEvent, startedDowngrades } from './downgrade.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { markStep } from '../../shared/host/steps.ts';

export const NAME = 'resolve-template';

/**
 * Kyma → which template (and version) each wanted module uses, recorded in `status.modules[]`; then a
 * `modules.resolved` reply for render-manifest. ModuleTemplate/ModuleReleaseMeta changes fan out to Kymas.
 */
export function resolveTemplate(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.templates, CACHED.releaseMetas, CACHED.kubeconfigs]);
  const runtimes = new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands);
  const maintenance = new MaintenancePolicyFile(deps.config.maintenancePolicyPath, deps.config.maintenanceMinWindowMinutes);
  const remotes = new RemoteKymaMemo(deps.config.driftPeriodMinutes * 60_000);
  const events = new EventRecorder(given.kcp, NAME);
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    async handle({ event, key, log }) {
      if (key.kind === 'ModuleTemplate' || key.kind === 'ModuleReleaseMeta') {
        if (key.kind === 'ModuleReleaseMeta' && await mandatoryRelease(deps.kcp, key, log)) return undefined;
        const { sent, deferred } = await fanOut(deps, key, event);
        log.info({ kymas: sent, deferred }, `${key.kind} change fanned out${deferred ? ` (${deferred} Kymas wait for the release budget; the resync sends them)` : ''}`);
        return undefined;
      }
      if (key.kind !== 'Kyma') throw new InvalidEventError(`${NAME} handles Kyma, ModuleTemplate and ModuleReleaseMeta, not ${key.kind}`);
      const read = await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name: key.name });
      if (!read || read.metadata.deletionTimestamp) return undefined;
      if (read.metadata.labels?.[LABEL.skipReconciliation] === 'true') return undefined;
      const kyma = await ensureKymaMetadata(deps.kcp, read, events);
      // Live reads (not the watch cache) of this Kyma and of another a runtime Kyma names as its owner.
      const live = (namespace: string, name: string) => given.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace, name });
      const stillWanted = async () => {
        const current = await live(key.namespace, key.name);
        return Boolean(current && !current.metadata.deletionTimestamp);
      };
      const exists = async (owner: string) => Boolean(await live(owner.split('/')[0] ?? '', owner.split('/')[1] ?? ''));
      const effective = await effectiveSpecOf(runtimes, kyma, remotes, !checksDrift(event), stillWanted, exists, events);
      if (effective.created) await reportCreated(events, kyma, effective, log);
      if (effective.gone) return undefined;
      markStep('manifest_reconciliation');
      const observed = await observe(deps.kcp, deps.artifacts, { ...kyma, spec: effective.spec });
      const modules = resolveModules({ ...observed, maintenance: await maintenance.windowOf(kyma), restrictedModules: deps.config.restrictedModules });
      const specSource = specSourceOf(effective);
      let stored = kyma;
      if (!sameResolution(kyma, modules) || canonicalJson(kyma.status?.specSource) !== canonicalJson(specSource)) {
        // A list taken from memory is written only onto the Kyma version read: a call that worked from an older Kyma
        // (and so perhaps from a stale memo) cannot overwrite a newer resolution; it gets 409 and is retried (ADR 43).
        const { resourceVersion } = kyma.metadata;
        const metadata = { name: key.name, namespace: key.namespace, ...(effective.remembered && resourceVersion ? { resourceVersion } : {}) };
        stored = await deps.kcp.apply<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', metadata, status: { modules, specSource, lastTrace: currentTraceparent() } },
          FIELD_MANAGER.resolution, 'status');
        for (const downgrade of startedDowngrades(kyma, modules)) {
          log.info({ kyma: key.name, ...downgrade }, 'explicit downgrade allowed by spec.modules[].allowDowngradeTo');
          await events.record(involvedOf(kyma), downgradeEvent(downgrade));
        }
      }
      return eventAbout(MODULES_RESOLVED, NAME, key, event, {
        generation: String(stored.metadata.generation ?? 0), resourceversion: stored.metadata.resourceVersion ?? '',
      });
    },
  };
}

/** PURE. Where the module list came from, with the runtime Kyma's generation it was taken from (ADR 43). */
export function specSourceOf(effective: EffectiveSpec): SpecSource {
  const generation = effective.from === 'runtime' ? effective.remote?.metadata.generation : undefined;
  return { from: effective.from, channel: effective.spec.channel, ...(generation === undefined ? {} : { generation }) };
}

/** A runtime Kyma this call created: logged, and upstream's RemoteInstallation Event on the Kyma (not when the Kyma
 * went meanwhile and it was deleted again). */
async function reportCreated(events: EventRecorder, kyma: Kyma, effective: EffectiveSpec, log: Logger): Promise<void> {
  log.info({ modules: effective.spec.modules?.map((m) => m.name) ?? [], gone: effective.gone ?? false }, effective.gone ? 'runtime Kyma created, then deleted: the Kyma went meanwhile' : 'runtime Kyma created from the KCP spec');
  if (!effective.gone) await events.record(involvedOf(kyma), { type: 'Normal', reason: 'RemoteInstallation', message: 'runtime Kyma created from the KCP spec' });
}

/**
 * The module list that counts: the runtime Kyma's once it exists (an in-cluster Kyma's own). Nothing is resolved while the runtime cannot be
 * used (no or unusable kubeconfig Secret, 401/403, no connection) — as upstream, no Manifest is created for it, and
 * a list that came from the runtime is never replaced by the KCP spec (that would uninstall what the user added
 * there): 503, retried; aggregate-status reports the runtime as unreachable meanwhile. The runtime Kyma is read on
 * `resync.due` events that check drift (the runtime watch's, fan-outs, the resync's drift checks); other events — the
 * resync's safety net for a Kyma not Ready yet among them (ADR 27) — `reuse` it from `memo` (ADR 25).
 */
async function effectiveSpecOf(runtimes: RuntimeClients, kyma: Kyma, memo: RemoteKymaMemo, reuse: boolean, stillWanted: StillWanted, exists: KymaExists, events: EventRecorder): Promise<EffectiveSpec> {
  // Single-cluster mode (ADR 21): the Kyma is the only one; there is no runtime Kyma to take the list from.
  if (isInClusterKyma(kyma)) return { from: 'kcp', spec: kyma.spec ?? { channel: '' } };
  const { namespace = '', name } = kyma.metadata;
  const access = await runtimes.forKyma(namespace, name).catch((e: unknown) => ({ missing: e instanceof Error ? e.message : String(e) }));
  if ('missing' in access) throw new NotYetReadyError(`runtime of Kyma ${name}: ${access.missing}`, 'sync_context_retrieval');
  const key = `${namespace}/${name}`;
  try {
    const recalled = reuse ? memo.recall(access.client, key, kyma.status?.specSource) : undefined;
    const effective = await effectiveSpec(access.client, kyma, access.scope, stillWanted, recalled, exists, events);
    memo.remember(access.client, key, effective.remote);
    return recalled ? { ...effective, remembered: true } : effective;
  } catch (error) {
    if (!isRuntimeUnreachable(error)) throw error;
    runtimes.evict(namespace, name);
    throw new NotYetReadyError(`runtime of Kyma ${name} unreachable: ${error instanceof Error ? error.message : String(error)}`, 'sync_context_retrieval');
  }
}
