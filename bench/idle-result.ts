// The idle window's part of a bench result: requests per second on each side, ours, the WATCHes we opened (ADR 64).
import type { Cost } from './cost.ts';
import { ownRequests, ownWatches } from './own-writes.ts';

export const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

export const top = (counts: Record<string, number>, n: number) =>
  Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, n),
  );

/** `kcpControllers`: the KCP resources that are not the lifecycle manager's (own-writes.ts). */
export function idleResult(idle: Cost, startedSettled: boolean, kcpControllers: RegExp, readyKymas: number) {
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
    kcpByVerbResource: top(idle.kcp.byVerbResource, 8),
    runtimeByVerbResource: top(idle.runtimes.byVerbResource, 8),
  };
}
