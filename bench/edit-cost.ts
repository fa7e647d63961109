// The edits' numbers (issue 35): how long each took, by hop, and what the edits after convergence cost — the lifecycle
// manager's requests and calls per edit by function and event, counted from the first edit until the last was Ready,
// and the CPU of the run's processes over that window (the drift checks running beside them included). Pure.
import type { TalliedRequest } from '../shared/kube/request-tally.ts';
import { callsPerInstall, costByFunction } from './by-function.ts';
import type { Cost } from './cost.ts';
import { editLatency, editTimeline, type EditMarks } from './edit-timeline.ts';
import { idleCpu, round } from './idle-result.ts';
import { percentile } from './write-ceiling.ts';

/** What was counted while the edits after convergence went to Ready. */
export interface EditCounts {
  requests: TalliedRequest[];
  calls: Record<string, number>;
  cost: Pick<Cost, 'seconds' | 'processes' | 'self'>;
}

/** PURE. The edits' latencies (p50, p99, max) and hops. */
export function editSummary(marks: readonly EditMarks[]) {
  const seconds = marks.map((m) => editLatency(m) / 1000).sort((a, b) => a - b);
  return {
    count: seconds.length,
    p50Seconds: round(percentile(seconds, 50)),
    p99Seconds: round(percentile(seconds, 99)),
    maxSeconds: round(seconds.at(-1) ?? Number.NaN),
    hops: editTimeline(marks),
  };
}

/** PURE. Per edit: the requests (KCP and runtimes) and calls by function and event, and the window's CPU. */
export function editCost(counts: EditCounts, kcpServer: string, edits: number, cores: number) {
  return {
    seconds: round(counts.cost.seconds),
    cpu: idleCpu(counts.cost, cores),
    byEvent: costByFunction(counts.requests, kcpServer, edits),
    callsByEvent: callsPerInstall(counts.calls, edits),
  };
}
