import { describe, expect, it } from 'vitest';
import { editLatency, editTimeline, hopsOf, timelineText } from './edit-timeline.ts';

describe("an edit's hops", () => {
  it('splits the time to Ready into resolve, render, apply and report', () => {
    const edit = { kyma: 'kyma-1', edited: 1_000, listed: 1_500, manifest: 2_000, applied: 5_000, ready: 6_200 };
    expect(hopsOf(edit)).toEqual({ resolve: 500, render: 500, apply: 3_000, report: 1_200 });
    expect(editLatency(edit)).toBe(5_200);
  });

  it('counts a hop seen before the one ahead of it as no time, and leaves out a hop not seen', () => {
    // The Manifest seen before the Kyma's status listed the module (render before resolve's write was observed).
    const early = { kyma: 'k', edited: 0, listed: 800, manifest: 600, applied: 1_800, ready: 2_000 };
    expect(hopsOf(early)).toEqual({ resolve: 800, render: 0, apply: 1_000, report: 200 });
    const unseen = { kyma: 'k', edited: 0, listed: 300, ready: 2_000 };
    expect(hopsOf(unseen)).toEqual({ resolve: 300, report: 1_700 });
    expect(editLatency({ kyma: 'k', edited: 10 })).toBe(0);
  });

  it('summarises each hop over the edits as p50/p99 seconds', () => {
    const edits = Array.from({ length: 100 }, (_, i) => ({
      kyma: `k${i}`,
      edited: 0,
      listed: 100,
      manifest: 200,
      applied: 200 + (i + 1) * 100,
      ready: 10_300 + (i + 1) * 100,
    }));
    const timeline = editTimeline(edits);
    expect(timeline.resolve).toEqual({ p50Seconds: 0.1, p99Seconds: 0.1 });
    expect(timeline.apply).toEqual({ p50Seconds: 5, p99Seconds: 9.9 });
    expect(timeline.report).toEqual({ p50Seconds: 10.1, p99Seconds: 10.1 });
    expect(timelineText(timeline)).toBe('resolve 0.1/0.1 s, render 0.1/0.1 s, apply 5/9.9 s, report 10.1/10.1 s');
    expect(timelineText(editTimeline([]))).toBe('resolve —/— s, render —/— s, apply —/— s, report —/— s');
  });
});
