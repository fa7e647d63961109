// What the fleet costs between two moments: API requests by verb and resource from each kube-apiserver's own
// /metrics, CPU and memory of the apiservers and etcds (/proc) and of this process, where the functions run.
import type { Cluster } from '../local/controlplane/index.ts';
import {
  diffCounters,
  scrapeRequestCounters,
  summarise,
  type RequestCounter,
  type RequestSummary,
} from './apiserver-metrics.ts';
import type { Fleet } from './fleet.ts';
import { readProcessUsage, selfUsage, usageDelta, type ProcessUsage } from './process-usage.ts';

export interface CostSnapshot {
  at: number;
  kcp: RequestCounter[];
  runtimes: RequestCounter[][];
  /** `<cluster>-<process>` (e.g. `kcp-kube-apiserver`, `runtime-1-etcd`) → usage. */
  processes: Record<string, ProcessUsage>;
  /** This process: the functions, the local broker and sources, and the benchmark's own bookkeeping. */
  self: ProcessUsage;
}

export interface Cost {
  seconds: number;
  kcp: RequestSummary;
  /** All runtime API servers together. */
  runtimes: RequestSummary;
  processes: Record<string, ProcessUsage>;
  self: ProcessUsage;
}

/** `more`: processes besides the clusters' (Knative's pods, the function processes; bench/engine.ts). */
export async function costSnapshot(
  fleet: Fleet,
  more: readonly { name: string; pid: number }[] = [],
): Promise<CostSnapshot> {
  const clusters: Cluster[] = [fleet.plane.kcp, ...fleet.plane.runtimes];
  const processes: Record<string, ProcessUsage> = {};
  for (const p of [...clusters.flatMap((c) => c.processes), ...more]) {
    const usage = await readProcessUsage(p.pid);
    if (usage) processes[p.name] = usage;
  }
  return {
    at: performance.now(),
    kcp: await scrapeRequestCounters(fleet.plane.kcp),
    runtimes: await Promise.all(fleet.plane.runtimes.map((r) => scrapeRequestCounters(r))),
    processes,
    // /proc/self: getrusage's maxrss after exec still holds the parent's peak, so it is not this process's own.
    self: (await readProcessUsage(process.pid)) ?? selfUsage(),
  };
}

export function costBetween(a: CostSnapshot, b: CostSnapshot): Cost {
  const runtimeDelta = b.runtimes.flatMap((after, i) => diffCounters(a.runtimes[i] ?? [], after));
  const processes: Record<string, ProcessUsage> = {};
  for (const [name, after] of Object.entries(b.processes)) {
    const before = a.processes[name];
    if (before) processes[name] = usageDelta(before, after);
  }
  return {
    seconds: (b.at - a.at) / 1000,
    kcp: summarise(diffCounters(a.kcp, b.kcp)),
    runtimes: summarise(runtimeDelta),
    processes,
    self: usageDelta(a.self, b.self),
  };
}
