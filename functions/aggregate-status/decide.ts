import { canonicalJson } from '../../shared/core/canonical.ts';
import {
  effectiveModules,
  type Kyma,
  type KymaModule,
  type KymaStatus,
  type ModuleResolution,
  type ModuleStatus,
} from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { Condition, State, TrackingObject } from '../../shared/core/objects.ts';
import { ANNOTATION, API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';

const READY_STATES: (State | undefined)[] = ['Ready', 'Unmanaged'];

/** PURE. One status entry per module in spec or with a Manifest: the aggregate-status-owned fields. */
export function moduleEntries(kyma: Kyma, manifests: Manifest[]): ModuleStatus[] {
  const spec = new Map(effectiveModules(kyma).map((m) => [m.name, m]));
  const byModule = new Map(
    manifests
      .filter((m) => m.metadata.labels?.[LABEL.mandatoryModule] !== 'true')
      .map((m) => [m.metadata.labels?.[LABEL.moduleName] ?? '', m]),
  );
  const names = [...new Set([...spec.keys(), ...byModule.keys()])].filter(Boolean);
  const resolution = (name: string) => kyma.status?.modules?.find((m) => m.name === name)?.resolution;
  return names.map((name) => moduleEntry(name, spec.get(name), resolution(name), byModule.get(name)));
}

function moduleEntry(
  name: string,
  wanted: KymaModule | undefined,
  resolution: ModuleResolution | undefined,
  manifest: Manifest | undefined,
): ModuleStatus {
  if (wanted?.managed === false) return { name, state: 'Unmanaged' };
  const version = manifest?.spec?.version ? { version: manifest.spec.version } : {};
  if (wanted && resolution?.state === 'Error')
    return { name, state: 'Error', ...(resolution.message ? { message: resolution.message } : {}), ...version };
  const refs = manifest ? { ...version, manifest: tracking(manifest), ...resourceRef(manifest) } : {};
  if (wanted && resolution?.state === 'Warning')
    return { name, state: 'Warning', ...(resolution.message ? { message: resolution.message } : {}), ...refs };
  if (!manifest)
    return {
      name,
      state: 'Processing',
      message: resolution ? 'waiting for the module Manifest to be created' : 'waiting for the module to be resolved',
    };
  if (isStale(manifest))
    return {
      name,
      state: 'Processing',
      message: `waiting for version ${manifest.spec?.version ?? ''} to be applied`,
      ...refs,
    };
  // A Manifest being deleted is Deleting whatever its last status said (its module is going, ADR 40 / issue 34).
  const state = manifest.metadata.deletionTimestamp ? 'Deleting' : manifest.status?.state || 'Processing';
  const waiting = resolution?.maintenance ? { maintenance: true } : {};
  const message =
    state === 'Ready'
      ? resolution?.maintenance
        ? resolution.message
        : undefined
      : manifest.status?.lastOperation?.operation;
  return { name, state, ...(message ? { message } : {}), ...refs, ...waiting };
}

/** The Manifest's status describes an older spec (its conditions observed an earlier generation). */
const isStale = (m: Manifest) =>
  !m.metadata.deletionTimestamp &&
  (m.status?.conditions ?? []).some((c) => (c.observedGeneration ?? 0) < (m.metadata.generation ?? 0));

const tracking = (m: Manifest): TrackingObject => ({
  apiVersion: API_VERSION,
  kind: 'Manifest',
  metadata: { name: m.metadata.name, namespace: m.metadata.namespace ?? '', generation: m.metadata.generation ?? 0 },
});

function resourceRef(m: Manifest): { resource?: TrackingObject } {
  const cr = m.spec?.resource as
    { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } | null | undefined;
  if (!cr?.kind || (m.spec?.customResourcePolicy ?? 'CreateAndDelete') !== 'CreateAndDelete') return {};
  const clusterScoped = m.metadata.annotations?.[ANNOTATION.isClusterScoped] === 'true';
  return {
    resource: {
      apiVersion: cr.apiVersion ?? '',
      kind: cr.kind,
      metadata: { name: cr.metadata?.name ?? '', namespace: clusterScoped ? '' : (cr.metadata?.namespace ?? '') },
    },
  };
}

/** PURE. Kyma state: Error > Warning > Processing > any condition not True > Ready. */
export function kymaState(modules: ModuleStatus[], conditions: Condition[]): Exclude<State, 'Unmanaged' | 'Deleting'> {
  if (modules.some((m) => m.state === 'Error')) return 'Error';
  if (modules.some((m) => m.state === 'Warning')) return 'Warning';
  if (modules.some((m) => m.state === 'Processing')) return 'Processing';
  return conditions.every((c) => c.status === 'True') ? 'Ready' : 'Processing';
}

/** What syncing the runtime (CRDs, module catalog) gave this time; undefined = not attempted in this call (the
 * catalog alone: not pushed yet, ADR 78 — its condition stays as it was). */
export type RuntimeSync = { crds: Outcome; catalog?: Outcome; pullSecret?: Outcome } | { unreachable: string };
type Outcome = { ok: boolean; message: string; unknown?: true };

/** The operation of a Kyma whose modules are Ready while its runtime Kyma does not exist yet. */
export const AWAITING_RUNTIME_KYMA = 'waiting for the runtime Kyma to be created';

/** PURE. Whether the module list came from the KCP spec for want of the runtime's Kyma CRD (resolve-template): the
 * runtime Kyma is still to be created (ADR 74); an in-cluster Kyma has none. */
export const awaitsRuntimeKyma = (kyma: Kyma, inCluster: boolean): boolean =>
  !inCluster && kyma.status?.specSource?.from === 'kcp';

/** PURE. Whether the runtime's catalog is pushed in this call: once resolve-template resolved the module list from the
 * runtime Kyma, which it creates with the runtime namespace the copies live in (ADR 78); before, the CRDs only. */
export const catalogDue = (kyma: Kyma): boolean => kyma.status?.specSource?.from === 'runtime';

/** PURE. Whether the Kyma re-read after its runtime side wants another side than the one synced: resolve-template
 * resolved it from the runtime Kyma meanwhile, so its catalog is due now (ADR 82). That resolution's event may never
 * come on its own: queued behind this call, it is coalesced with the echo of the status this call writes. */
export const runtimeSideChanged = (seen: Kyma, kyma: Kyma, inCluster: boolean): boolean =>
  catalogDue(seen) !== catalogDue(kyma) || awaitsRuntimeKyma(seen, inCluster) !== awaitsRuntimeKyma(kyma, inCluster);

/** PURE. The status aggregate-status writes; timestamps kept when nothing else changed. A Kyma `awaiting` its runtime
 * Kyma is not Ready (upstream creates the runtime Kyma before anything else): Processing, saying so (ADR 74). */
export function aggregate(
  kyma: Kyma,
  manifests: Manifest[],
  now: string,
  sync?: RuntimeSync,
  awaiting = false,
): KymaStatus {
  const unreachable = sync && 'unreachable' in sync ? sync.unreachable : '';
  const modules = moduleEntries(kyma, manifests).map((m) =>
    unreachable && m.state !== 'Unmanaged' ? { ...m, state: 'Error' as const, message: unreachable } : m,
  );
  const allReady = modules.every((m) => READY_STATES.includes(m.state));
  const previous = kyma.status ?? {};
  const runtimeOutcome = (type: 'CRDsSync' | 'ModuleCatalog' | 'SKRImagePullSecretSync'): Outcome | undefined => {
    if (!sync) return undefined;
    // Not evaluated in this pass (upstream: conditions a pass does not reach stay Unknown, ADR 40).
    if ('unreachable' in sync) return { ok: false, unknown: true, message: sync.unreachable };
    return type === 'CRDsSync' ? sync.crds : type === 'ModuleCatalog' ? sync.catalog : sync.pullSecret;
  };
  // Upstream's SKRImagePullSecretSync: only where an image pull Secret is configured (or was, when last observed).
  const pullSecret =
    (sync && 'pullSecret' in sync) || previous.conditions?.some((c) => c.type === 'SKRImagePullSecretSync');
  const resolved = Boolean(previous.specSource);
  // Only what was observed: no resolution yet says nothing (Unknown), an unreachable runtime says False.
  const modulesOutcome: Outcome | undefined = unreachable
    ? { ok: false, message: unreachable }
    : resolved
      ? { ok: allReady, message: allReady ? 'all modules are in ready state' : 'not all modules are in ready state' }
      : undefined;
  const conditions = [
    condition(kyma, 'CRDsSync', runtimeOutcome('CRDsSync'), now),
    condition(kyma, 'Modules', modulesOutcome, now),
    condition(kyma, 'ModuleCatalog', runtimeOutcome('ModuleCatalog'), now),
    ...(pullSecret ? [condition(kyma, 'SKRImagePullSecretSync', runtimeOutcome('SKRImagePullSecretSync'), now)] : []),
  ];
  const reached = unreachable ? 'Error' : resolved ? kymaState(modules, conditions) : 'Processing';
  const held = awaiting && reached === 'Ready';
  const state = held ? 'Processing' : reached;
  const operation =
    unreachable ||
    (held
      ? AWAITING_RUNTIME_KYMA
      : resolved
        ? operationOf(state, modules)
        : 'waiting for the module list to be resolved');
  const activeChannel =
    state === 'Ready' || state === 'Warning'
      ? previous.specSource?.channel || kyma.spec?.channel
      : previous.activeChannel;
  const lastUpdateTime =
    previous.state === state && previous.lastOperation?.operation === operation
      ? (previous.lastOperation.lastUpdateTime ?? now)
      : now;
  return {
    state,
    conditions,
    modules,
    lastOperation: { operation, lastUpdateTime },
    ...(activeChannel ? { activeChannel } : {}),
  };
}

/** A condition from this call's outcome, or as stored when not evaluated (Unknown if never). */
function condition(kyma: Kyma, type: string, outcome: Outcome | undefined, now: string): Condition {
  const old = kyma.status?.conditions?.find((c) => c.type === type);
  const status = outcome ? (outcome.unknown ? 'Unknown' : outcome.ok ? 'True' : 'False') : (old?.status ?? 'Unknown');
  const message = outcome?.message ?? old?.message ?? `${type} not evaluated yet`;
  return {
    type,
    status,
    reason: 'Ready',
    message,
    observedGeneration: kyma.metadata.generation ?? 0,
    lastTransitionTime: old?.status === status ? (old.lastTransitionTime ?? now) : now,
  };
}

function operationOf(state: State, modules: ModuleStatus[]): string {
  if (state === 'Ready') return 'kyma is ready';
  const problem = modules.find((m) => m.state === state && m.message);
  return problem ? `module ${problem.name}: ${problem.message}` : 'waiting for all modules to become ready';
}

/** The aggregate-owned part of a stored status, for compare-before-write (timestamps ignored). */
export function ownedPart(status: KymaStatus | undefined): string {
  // Upstream writes `maintenance: false` in every entry; absent means the same (ADR 40).
  const modules = (status?.modules ?? [])
    .map(({ name, state, message, version, manifest, resource, maintenance }) => ({
      name,
      state,
      message,
      version,
      manifest,
      resource,
      maintenance: maintenance === true,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
  const conditions = (status?.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: undefined }));
  return canonicalJson({
    state: status?.state,
    activeChannel: status?.activeChannel,
    operation: status?.lastOperation?.operation,
    conditions,
    modules,
  });
}

/** What aggregate-status saw of a Kyma in a call. */
export interface AggregateView {
  kyma: Kyma;
  manifests: Manifest[];
  /** Kyma events (and resyncs) sync the runtime side first: what that found. Absent on Manifest events. */
  runtimeSide?:
    { sync: RuntimeSync; runtime: boolean; pending?: string | undefined; watcherRemoved: boolean } | undefined;
  inCluster: boolean;
  now: string;
}

export type AggregateStep =
  | { step: 'Ignore'; why: 'gone' | 'deleting' | 'skip-reconciliation' | 'own status write' }
  | { step: 'ReportWatcherRemoved' }
  | { step: 'WriteStatus'; status: KymaStatus }
  | { step: 'MirrorStatus'; lookUpRuntime: boolean; statusWritten: boolean }
  | { step: 'RetryPending'; message: string };

/** PURE. Why a call leaves a Kyma's status alone: gone, being deleted (purge's), skipping reconciliation, or the event
 * is the echo of this instance's own status write (its runtime side and mirror were done by the call that wrote it). */
export function ignoreReason(
  kyma: Kyma | undefined,
  echo: boolean,
): Extract<AggregateStep, { step: 'Ignore' }> | undefined {
  if (!kyma) return { step: 'Ignore', why: 'gone' };
  if (kyma.metadata.deletionTimestamp) return { step: 'Ignore', why: 'deleting' };
  if (kyma.metadata.labels?.[LABEL.skipReconciliation] === 'true')
    return { step: 'Ignore', why: 'skip-reconciliation' };
  return echo ? { step: 'Ignore', why: 'own status write' } : undefined;
}

/** How long a new Kyma's first status waits for its first resolution (ADR 78). */
export const FIRST_RESOLUTION_WAIT_MS = 60_000;

/** PURE. A Kyma created less than a minute ago, with no status yet, whose runtime side went well: its first status
 * waits for resolve-template's resolution, whose write brings the next call (ADR 78); later, the resync's. */
function awaitsFirstResolution({ kyma, runtimeSide, now }: AggregateView): boolean {
  if (kyma.status?.state || kyma.status?.specSource || !runtimeSide || runtimeSide.pending) return false;
  if ('unreachable' in runtimeSide.sync) return false;
  return Date.parse(now) - Date.parse(kyma.metadata.creationTimestamp ?? '') < FIRST_RESOLUTION_WAIT_MS;
}

/** PURE. The steps of a call, in order: upstream's SKR watcher reported removed; the status written when it changed;
 * the status mirrored to the runtime Kyma (after a finished runtime sync, or at once when it changed on a Manifest
 * event); a runtime side still pending retried. */
export function aggregateSteps(view: AggregateView): AggregateStep[] {
  const { kyma, runtimeSide } = view;
  const watcher = runtimeSide?.watcherRemoved ? [{ step: 'ReportWatcherRemoved' as const }] : [];
  if (awaitsFirstResolution(view)) return watcher;
  const status = aggregate(kyma, view.manifests, view.now, runtimeSide?.sync, awaitsRuntimeKyma(kyma, view.inCluster));
  const changed = ownedPart(status) !== ownedPart(kyma.status);
  const mirror = runtimeSide ? runtimeSide.runtime && !runtimeSide.pending : changed && !view.inCluster;
  return [
    ...watcher,
    ...(changed ? [{ step: 'WriteStatus' as const, status }] : []),
    ...(mirror ? [{ step: 'MirrorStatus' as const, lookUpRuntime: !runtimeSide, statusWritten: changed }] : []),
    ...(runtimeSide?.pending
      ? [{ step: 'RetryPending' as const, message: `runtime of Kyma ${kyma.metadata.name}: ${runtimeSide.pending}` }]
      : []),
  ];
}
