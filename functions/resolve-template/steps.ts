// What each step of resolve-template does (decide.ts chooses the step; index.ts runs them).
import type { CloudEvent } from 'cloudevents';
import type { Kyma, ModuleStatus, SpecSource } from '../../shared/core/kyma.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { canonicalJson } from '../../shared/core/canonical.ts';
import { API_VERSION, FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import { NotYetReadyError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import {
  MODULES_RESOLVED,
  fullCheckOf,
  eventAbout,
  type EventAttributes,
  type ObjectKey,
} from '../../shared/host/events.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { markStep } from '../../shared/host/steps.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { involvedOf, type EventRecorder } from '../../shared/kube/events.ts';
import type { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { specSourceOf, type ResolveStep, type ResolveView } from './decide.ts';
import { downgradeEvent, startedDowngrades } from '../../shared/core/downgrade.ts';
import { fanOut } from './fan-out.ts';
import { ensureKymaMetadata } from './kyma-metadata.ts';
import type { MaintenancePolicyFile } from '../../shared/host/maintenance-file.ts';
import { mandatoryRelease } from './mandatory.ts';
import { observe } from './observe.ts';
import { effectiveSpec, type EffectiveSpec } from './remote-kyma.ts';
import type { RemoteKymaMemo } from './remote-memo.ts';
import { resolveModules, sameResolution } from '../../shared/core/resolve-modules.ts';
import { replySeen, type LastReplies, type ReplySeen } from './last-reply.ts';
import { resolutionDriftReplies } from '../../shared/host/metrics.ts';

/** What every call shares: the function's clients and memories. */
export interface ResolveDeps {
  deps: FunctionDeps;
  /** The KCP read live (not the watch cache). */
  live: FunctionDeps['kcp'];
  runtimes: RuntimeClients;
  maintenance: MaintenancePolicyFile;
  remotes: RemoteKymaMemo;
  events: EventRecorder;
  /** What each drift check's reply was sent at (ADR 95). */
  replies: LastReplies;
}

/** One call: the view, and what its steps found. */
export interface ResolveCall {
  view: ResolveView;
  key: ObjectKey;
  event: EventAttributes;
  log: Logger;
  effective?: EffectiveSpec;
  resolved?: { modules: ModuleStatus[]; specSource: SpecSource };
  /** The Kyma as stored last (after its metadata, after the resolution). */
  stored?: Kyma;
  /** A drift check's reads, by version, to compare with its last reply's and to remember with this one (ADR 95). */
  seen?: ReplySeen | undefined;
  reply?: CloudEvent<unknown>;
}

type Take = (on: ResolveDeps, call: ResolveCall, step: ResolveStep) => Promise<void>;

const kymaOf = (call: ResolveCall): Kyma => call.stored as Kyma;

export const STEPS: Record<ResolveStep['step'], Take> = {
  ReleaseMandatory: async ({ deps }, call) => {
    call.view.mandatoryReleased = await mandatoryRelease(deps.kcp, call.key, call.log);
  },
  FanOut: async ({ deps }, { key, event, log }) => {
    const { sent, deferred } = await fanOut(deps, key, event);
    log.info(
      { kymas: sent, deferred },
      `${key.kind} change fanned out${deferred ? ` (${deferred} Kymas wait for the release budget; the resync sends them)` : ''}`,
    );
  },
  Ignore: async () => undefined,
  EnsureMetadata: async ({ deps, events }, call) => {
    call.stored = await ensureKymaMetadata(deps.kcp, call.view.kyma as Kyma, events);
    call.view.metadataEnsured = true;
  },
  TakeModuleList: async (on, call) => {
    call.effective = await effectiveSpecOf(on, kymaOf(call), fullCheckOf(call.event));
    call.view.list = { created: Boolean(call.effective.created), gone: Boolean(call.effective.gone) };
  },
  // Upstream's RemoteInstallation Event on the Kyma (not when the Kyma went meanwhile and it was deleted again).
  ReportRuntimeKymaCreated: async ({ events }, call) => {
    const effective = call.effective as EffectiveSpec;
    call.log.info(
      { modules: effective.spec.modules?.map((m) => m.name) ?? [], gone: effective.gone ?? false },
      effective.gone
        ? 'runtime Kyma created, then deleted: the Kyma went meanwhile'
        : 'runtime Kyma created from the KCP spec',
    );
    if (!effective.gone)
      await events.record(involvedOf(kymaOf(call)), {
        type: 'Normal',
        reason: 'RemoteInstallation',
        message: 'runtime Kyma created from the KCP spec',
      });
    call.view.createdReported = true;
  },
  Resolve: async ({ deps, maintenance }, call) => {
    markStep('manifest_reconciliation');
    const kyma = kymaOf(call);
    const effective = call.effective as EffectiveSpec;
    const observed = await observe(deps.kcp, deps.artifacts, { ...kyma, spec: effective.spec });
    const modules = resolveModules({
      ...observed,
      maintenance: await maintenance.windowOf(kyma),
      restrictedModules: deps.config.restrictedModules,
    });
    const specSource = specSourceOf(effective, kyma);
    call.resolved = { modules, specSource };
    call.view.resolution = {
      changed: !sameResolution(kyma, modules) || canonicalJson(kyma.status?.specSource) !== canonicalJson(specSource),
    };
  },
  WriteResolution: async ({ deps, events }, call) => {
    const kyma = kymaOf(call);
    const { modules, specSource } = call.resolved as NonNullable<ResolveCall['resolved']>;
    // A list taken from memory is written only onto the Kyma version read: a call that worked from an older Kyma
    // (and so perhaps from a stale memo) cannot overwrite a newer resolution; it gets 409 and is retried (ADR 43).
    const { resourceVersion } = kyma.metadata;
    const metadata = {
      name: call.key.name,
      namespace: call.key.namespace,
      ...(call.effective?.remembered && resourceVersion ? { resourceVersion } : {}),
    };
    call.stored = await deps.kcp.apply<Kyma>(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata,
        status: { modules, specSource, lastTrace: currentTraceparent() },
      },
      FIELD_MANAGER.resolution,
      'status',
    );
    call.view.written = true;
    for (const downgrade of startedDowngrades(kyma, modules)) {
      call.log.info(
        { kyma: call.key.name, ...downgrade },
        'explicit downgrade allowed by spec.modules[].allowDowngradeTo',
      );
      await events.record(involvedOf(kyma), downgradeEvent(downgrade));
    }
  },
  CompareWithLastReply: async ({ deps, replies }, call) => {
    const { uid } = kymaOf(call).metadata;
    call.seen = uid ? await replySeen(deps.kcp, kymaOf(call)) : undefined;
    const same = Boolean(uid && call.seen && replies.same(uid, call.seen));
    resolutionDriftReplies.inc({ found: same ? 'unchanged' : 'replied' });
    call.view.lastReply = { same };
  },
  ReplyResolved: async ({ replies }, call) => {
    const stored = kymaOf(call);
    if (call.seen && stored.metadata.uid) replies.remember(stored.metadata.uid, call.seen);
    call.reply = eventAbout(MODULES_RESOLVED, 'resolve-template', call.key, call.event, {
      generation: String(stored.metadata.generation ?? 0),
      resourceversion: stored.metadata.resourceVersion ?? '',
    });
  },
};

/** The module list that counts: the runtime Kyma's once it exists (an in-cluster Kyma's own). While the runtime cannot
 * be used nothing is resolved (503, retried): a list from the runtime is never replaced by the KCP spec (ADR 9). Full
 * checks (`resync.due`) read the runtime Kyma as `check` says (ADR 76); other events reuse the memo (ADR 25, 27). */
async function effectiveSpecOf(
  { runtimes, remotes, events, live }: ResolveDeps,
  kyma: Kyma,
  check: Freshness | false,
): Promise<EffectiveSpec> {
  // Single-cluster mode (ADR 21): the Kyma is the only one; there is no runtime Kyma to take the list from.
  if (isInClusterKyma(kyma)) return { from: 'kcp', spec: kyma.spec ?? { channel: '' } };
  const { namespace = '', name } = kyma.metadata;
  const access = await runtimes
    .forKyma(namespace, name)
    .catch((e: unknown) => ({ missing: e instanceof Error ? e.message : String(e) }));
  if ('missing' in access)
    throw new NotYetReadyError(`runtime of Kyma ${name}: ${access.missing}`, 'sync_context_retrieval');
  // Live reads (not the watch cache) of this Kyma and of another a runtime Kyma names as its owner.
  const read = (ns: string, n: string) =>
    live.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: ns, name: n });
  const stillWanted = async () => {
    const current = await read(namespace, name);
    return Boolean(current && !current.metadata.deletionTimestamp);
  };
  const exists = async (owner: string) => Boolean(await read(owner.split('/')[0] ?? '', owner.split('/')[1] ?? ''));
  const key = `${namespace}/${name}`;
  try {
    const recalled = check ? undefined : remotes.recall(access.client, key, kyma.status?.specSource);
    const effective = await effectiveSpec(access.client, kyma, access.scope, stillWanted, recalled, exists, events, {
      freshness: check || 'live',
      // Created or read here a moment ago: no unread create for a Kyma whose cached status lags (ADR 85).
      ...(remotes.holds(access.client, key) ? { existing: true as const } : {}),
    });
    remotes.remember(access.client, key, effective.remote);
    return recalled ? { ...effective, remembered: true } : effective;
  } catch (error) {
    if (!isRuntimeUnreachable(error)) throw error;
    runtimes.evict(namespace, name);
    throw new NotYetReadyError(
      `runtime of Kyma ${name} unreachable: ${error instanceof Error ? error.message : String(error)}`,
      'sync_context_retrieval',
    );
  }
}
