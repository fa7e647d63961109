// Where an edit's time goes, hop by hop, from what the bench's KCP watches saw (pure): the module listed in the Kyma's
// status (resolve-template), its Manifest created (render-manifest), the Manifest Ready (apply-remote), the module
// Ready in the Kyma's status (aggregate-status).
import { round } from './idle-result.ts';
import { percentile } from './write-ceiling.ts';

/** When an edit was made and when each of its hops was first seen (ms, performance.now); a hop not seen is absent. */
export interface EditMarks {
  kyma: string;
  edited: number;
  listed?: number | undefined;
  manifest?: number | undefined;
  applied?: number | undefined;
  ready?: number | undefined;
}

/** PURE. An edit's time to its module Ready, in ms (0 when it was never seen Ready). */
export const editLatency = (m: EditMarks): number => (m.ready ?? m.edited) - m.edited;

export const HOPS = ['resolve', 'render', 'apply', 'report'] as const;
export type Hop = (typeof HOPS)[number];

/** PURE. Each hop's time in ms: from the later of the marks before it to its own (0 when seen out of order); undefined
 * when its mark or every mark before it is missing. */
export function hopsOf(m: EditMarks): Partial<Record<Hop, number>> {
  const marks = [m.edited, m.listed, m.manifest, m.applied, m.ready];
  const hops: Partial<Record<Hop, number>> = {};
  let before = m.edited;
  HOPS.forEach((hop, i) => {
    const at = marks[i + 1];
    if (at === undefined) return;
    hops[hop] = Math.max(0, at - before);
    before = Math.max(before, at);
  });
  return hops;
}

/** p50 and p99 of one hop, in seconds (null where no edit has that hop). */
type HopSummary = { p50Seconds: number | null; p99Seconds: number | null };

/** PURE. p50 and p99 of each hop over the edits. */
export function editTimeline(edits: readonly EditMarks[]): Record<Hop, HopSummary> {
  const all = edits.map(hopsOf);
  const entries = HOPS.map((hop) => {
    const seconds = all.flatMap((h) => (h[hop] === undefined ? [] : [h[hop] / 1000])).sort((a, b) => a - b);
    return [hop, { p50Seconds: round(percentile(seconds, 50)), p99Seconds: round(percentile(seconds, 99)) }];
  });
  return Object.fromEntries(entries) as Record<Hop, HopSummary>;
}

/** PURE. "resolve 0.4/1.2 s, render …" (p50/p99 per hop) for the result table. */
export function timelineText(timeline: ReturnType<typeof editTimeline>): string {
  return HOPS.map((hop) => `${hop} ${timeline[hop].p50Seconds ?? '—'}/${timeline[hop].p99Seconds ?? '—'} s`).join(', ');
}
