// The idle window's part of a bench result: requests per second on each side, ours, the WATCHes we opened (ADR 64),
// and where the window's CPU went (issue 35: the drift period holds at 5,000 Ready Kymas, the machine ≤ 50 % busy).
import type { Cost } from './cost.ts';
import { kymaDriftChecks, moduleDriftChecks, resolutionDriftReplies } from '../shared/host/metrics.ts';
import { ownRequests, ownWatches } from './own-writes.ts';
import { usageByRole } from './roles.ts';

/** The drift checks so far in this process by what they found: apply-remote's of modules (ADR 92), aggregate-status'
 * of Kymas (ADR 93) and resolve-template's replies (ADR 95). */
export async function driftCheckCounts(): Promise<DriftChecks> {
  const counts = async (counter: typeof moduleDriftChecks) =>
    Object.fromEntries((await counter.get()).values.map((v) => [String(v.labels.found), v.value]));
  return {
    modules: await counts(moduleDriftChecks),
    kymas: await counts(kymaDriftChecks),
    resolutions: await counts(resolutionDriftReplies),
  };
}

export interface DriftChecks {
  modules: Record<string, number>;
  kymas: Record<string, number>;
  resolutions: Record<string, number>;
}

/** PURE. The drift checks between two counts. */
export const driftChecksBetween = (before: DriftChecks, after: DriftChecks): DriftChecks => ({
  modules: countsBetween(before.modules, after.modules),
  kymas: countsBetween(before.kymas, after.kymas),
  resolutions: countsBetween(before.resolutions, after.resolutions),
});

/** PURE. What each count grew by from `before` to `after`. */
export const countsBetween = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));

export const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

export const top = (counts: Record<string, number>, n: number) =>
  Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n),
  );

/** PURE. The CPU seconds of the idle window by process kind, and the share of the machine's `cores` the run's
 * processes kept busy (this process, the clusters' and, through Knative, the function processes and Knative's). */
export function idleCpu(idle: Pick<Cost, 'seconds' | 'processes' | 'self'>, cores: number) {
  const usages = Object.entries(idle.processes);
  const sum = (kind: RegExp) => usages.filter(([name]) => kind.test(name)).reduce((n, [, u]) => n + u.cpuSeconds, 0);
  const roles = usageByRole(idle.processes);
  const all = usages.reduce((n, [, u]) => n + u.cpuSeconds, idle.self.cpuSeconds);
  return {
    thisProcessSeconds: round(idle.self.cpuSeconds),
    functionProcessesSeconds: round(roles.functions?.cpuSeconds ?? 0),
    knativeSeconds: round(roles.knative?.cpuSeconds ?? 0),
    apiServersSeconds: round(sum(/kube-apiserver$/)),
    etcdSeconds: round(sum(/etcd$/)),
    machineBusyShare: round(all / Math.max(1e-9, idle.seconds * cores), 3),
  };
}

/** `kcpControllers`: the KCP resources that are not the lifecycle manager's (own-writes.ts). */
export function idleResult(
  idle: Cost,
  startedSettled: boolean,
  kcpControllers: RegExp,
  readyKymas: number,
  cores: number,
  driftChecks?: DriftChecks,
) {
  const own = {
    kcp: ownRequests(idle.kcp.byVerbResource, kcpControllers) / idle.seconds,
    runtimes: ownRequests(idle.runtimes.byVerbResource) / idle.seconds,
  };
  return {
    seconds: round(idle.seconds, 1),
    startedSettled,
    kcpRequestsPerSecond: round(idle.kcp.total / idle.seconds),
    kcpWritesPerSecond: round(idle.kcp.writes / idle.seconds),
    runtimeRequestsPerSecond: round(idle.runtimes.total / idle.seconds),
    runtimeWritesPerSecond: round(idle.runtimes.writes / idle.seconds),
    runtimeOwnRequestsPerSecond: round(own.runtimes),
    // WATCHes (re)opened: the runtime watches' share of the idle load (ADR 64).
    runtimeWatchesPerSecond: round(ownWatches(idle.runtimes.byVerbResource) / idle.seconds, 3),
    // What the fleet costs at rest, scaled to 1,000 Ready Kymas (the lifecycle manager's own requests on each side).
    perThousandKymas: {
      kcpRequestsPerSecond: round((own.kcp * 1000) / Math.max(1, readyKymas)),
      runtimeRequestsPerSecond: round((own.runtimes * 1000) / Math.max(1, readyKymas)),
    },
    cpu: idleCpu(idle, cores),
    // The drift checks in the window by what they found (ADR 92, 93; this process's functions only).
    ...(driftChecks
      ? {
          moduleDriftChecks: driftChecks.modules,
          kymaDriftChecks: driftChecks.kymas,
          resolutionDriftChecks: driftChecks.resolutions,
        }
      : {}),
    kcpByVerbResource: top(idle.kcp.byVerbResource, 8),
    runtimeByVerbResource: top(idle.runtimes.byVerbResource, 8),
  };
}
