import { describe, expect, it } from 'vitest';
import { RESYNC_DRIFT, RESYNC_PENDING, RESYNC_RELEASE } from '../../shared/core/resync-reasons.ts';
import type { ResyncStep } from './decide.ts';
import { MAX_DRIFT_GAP_MS, paceOf } from './pace.ts';

const drift = (name: string): ResyncStep => ({ step: 'SendResyncDue', kind: 'Kyma', name, reason: RESYNC_DRIFT });
const pending = (name: string): ResyncStep => ({
  step: 'SendResyncDue',
  kind: 'Manifest',
  name,
  reason: RESYNC_PENDING,
});
const release: ResyncStep = { step: 'SendReleaseTick', kind: 'ModuleReleaseMeta', name: 'm', reason: RESYNC_RELEASE };

describe('paceOf (ADR 97)', () => {
  it('sends the waiting work at once and first, then the drift checks in their order', () => {
    const paced = paceOf([drift('d1'), pending('p1'), drift('d2'), release, pending('p2')], 45_000);
    expect(paced.map((p) => p.step.name)).toEqual(['p1', 'm', 'p2', 'd1', 'd2']);
    expect(paced.slice(0, 3).map((p) => p.atMs)).toEqual([0, 0, 0]);
  });

  it("spreads a large tick's drift checks evenly over the spread, the last one within it", () => {
    const steps = Array.from({ length: 2_000 }, (_, i) => drift(`k${i}`));
    const times = paceOf(steps, 45_000).map((p) => p.atMs);
    expect(times[0]).toBe(0);
    expect(times.at(-1)).toBeLessThanOrEqual(45_000);
    expect(times.at(-1)).toBeGreaterThan(44_000);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    expect(Math.max(...gaps) - Math.min(...gaps), 'even, up to rounding').toBeLessThanOrEqual(1);
  });

  it("a small tick's drift checks go at most MAX_DRIFT_GAP_MS apart, not over the whole spread", () => {
    const times = paceOf([drift('a'), drift('b'), drift('c')], 45_000).map((p) => p.atMs);
    expect(times).toEqual([0, MAX_DRIFT_GAP_MS, 2 * MAX_DRIFT_GAP_MS]);
  });

  it('a spread of 0 sends everything at once, and a tick without drift checks has no gaps', () => {
    expect(paceOf([drift('a'), drift('b')], 0).map((p) => p.atMs)).toEqual([0, 0]);
    expect(paceOf([pending('a'), release], 45_000).map((p) => p.atMs)).toEqual([0, 0]);
    expect(paceOf([], 45_000)).toEqual([]);
  });
});
