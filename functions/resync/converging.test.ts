// The fleet converging (ADR 63, 79): what makes it so, and how the drift checks of Ready objects thin out (ADR 84).
import { describe, expect, it } from 'vitest';
import { DRIFT_STRETCHES, driftStretch, outstandingWork, selectDue, type Candidate } from './decide.ts';

const [DRIFT_STRETCH] = DRIFT_STRETCHES;
/** Converging, as the resync sees it: the drift slots stretched by the work outstanding (ADR 63, 79, 84). */
const isConverging = (candidates: readonly Candidate[], budget: number, now: number): boolean =>
  driftStretch(outstandingWork(candidates, now, 5), budget) > 1;

describe('drift checks while the fleet converges (ADR 63)', () => {
  const minute = 29_000_000;
  const now = minute * 60_000;
  const object = (name: string, state: string, secondsAgo: number, extra: Partial<Candidate> = {}): Candidate => ({
    kind: 'Manifest',
    name,
    state,
    deleting: false,
    lastWrite: now - secondsAgo * 1000,
    lastOwnWrite: now - secondsAgo * 1000,
    ...extra,
  });
  const ready = Array.from({ length: 600 }, (_, i) => object(`ready-${i}`, 'Ready', 3600));
  const installing = (count: number) => Array.from({ length: count }, (_, i) => object(`new-${i}`, 'Processing', 10));
  const stuck = (count: number) => Array.from({ length: count }, (_, i) => object(`stuck-${i}`, 'Error', 600));

  it('converging: more objects not Ready written in the last minute than a tick may send', () => {
    expect(isConverging([...ready, ...installing(11)], 10, now)).toBe(true);
    expect(isConverging([...ready, ...installing(10)], 10, now)).toBe(false);
    expect(isConverging([...ready, ...stuck(500)], 10, now), 'objects stuck in Error are not a rollout').toBe(false);
    const deleting = installing(50).map((c) => ({ ...c, deleting: true }));
    expect(isConverging(deleting, 10, now), 'deletions are not installs').toBe(false);
  });

  it('converging: a slow rollout, its objects waiting with no state yet, not written for minutes (ADR 79)', () => {
    const queued = (count: number, extra: Partial<Candidate> = {}) =>
      Array.from({ length: count }, (_, i) => ({ ...object(`queued-${i}`, '', 600), state: undefined, ...extra }));
    expect(isConverging([...ready, ...queued(11)], 10, now)).toBe(true);
    expect(isConverging([...ready, ...queued(6), ...installing(5)], 10, now), 'counted with the busy ones').toBe(true);
    expect(isConverging([...ready, ...queued(10)], 10, now)).toBe(false);
    expect(isConverging([...ready, ...queued(500, { skipped: true })], 10, now), 'skipped: no work waits').toBe(false);
    expect(isConverging([...ready, ...queued(500, { deleting: true })], 10, now)).toBe(false);
    const waitingKymas = (minutesAgo: number) =>
      Array.from({ length: 500 }, (_, i) => object(`kyma-${i}`, 'Processing', minutesAgo * 60, { kind: 'Kyma' }));
    expect(isConverging([...ready, ...waitingKymas(10)], 10, now), 'Processing, waiting its turn (ADR 87)').toBe(true);
    expect(isConverging([...ready, ...waitingKymas(61)], 10, now), 'not written for 12 periods: stuck').toBe(false);
  });

  it('a Ready object is checked once per DRIFT_STRETCH periods then, in slots its normal ones include', () => {
    // Each tick sees the installs written 10 s before it.
    const checks = (installs: number) =>
      Array.from({ length: 5 * DRIFT_STRETCH }, (_, t) => {
        const writes = installing(installs).map((c) => ({ ...c, lastWrite: c.lastWrite + t * 60_000 }));
        return selectDue([...ready, ...writes], minute + t, 5, 10, now + t * 60_000).filter((c) => c.state === 'Ready');
      });
    const calm = checks(0);
    const busy = checks(11);
    expect(calm.flat()).toHaveLength(600 * DRIFT_STRETCH);
    expect(busy.flat(), 'every Ready object once in the stretched period').toHaveLength(600);
    expect(new Set(busy.flat().map((c) => c.name)).size).toBe(600);
    busy.forEach((tick, t) => {
      const normal = new Set(calm[t]?.map((c) => c.name));
      expect(tick.every((c) => normal.has(c.name))).toBe(true);
    });
  });

  it('an object turned Ready while the fleet converges is first checked DRIFT_STRETCH periods after the write', () => {
    const recent = Array.from({ length: 200 }, (_, i) => object(`recent-${i}`, 'Ready', 6 * 60));
    const ticks = (installs: number) =>
      Array.from({ length: 5 * DRIFT_STRETCH }, (_, t) => {
        const writes = installing(installs).map((c) => ({ ...c, lastWrite: c.lastWrite + t * 60_000 }));
        const due = selectDue([...recent, ...writes], minute + t, 5, 10, now + t * 60_000);
        return due.filter((c) => c.state === 'Ready').map((c) => ({ c, t }));
      }).flat();
    const calm = ticks(0);
    const busy = ticks(11);
    expect(new Set(calm.map(({ c }) => c.name)).size, 'calm: each checked once it is a period old').toBe(200);
    expect(busy.length, 'converging: none within a stretched period of its write').toBeGreaterThan(0);
    for (const { c, t } of busy) expect(now + t * 60_000 - (c.lastOwnWrite ?? 0)).toBeGreaterThanOrEqual(15 * 60_000);
    expect(calm.some(({ c, t }) => now + t * 60_000 - (c.lastOwnWrite ?? 0) < 15 * 60_000)).toBe(true);
  });

  it('a Kyma waiting for its maintenance window keeps its period; not Ready and deleting ones are unchanged', () => {
    const waiting = object('kyma-7', 'Ready', 3600, { kind: 'Kyma', awaitsMaintenance: true });
    const busy = [waiting, ...installing(11), object('gone', 'Ready', 3600, { deleting: true })];
    const ticks = Array.from({ length: 5 }, (_, t) => selectDue(busy, minute + t, 5, 100, now + t * 60_000));
    expect(ticks.filter((due) => due.includes(waiting))).toHaveLength(1);
    expect(ticks.every((due) => due.length >= 12)).toBe(true);
  });

  it('counts a Processing object waiting its turn for up to the longest stretch: 12 periods (ADR 87)', () => {
    const waiting = (minutesAgo: number, state = 'Processing') =>
      object(`w-${state}-${minutesAgo}`, state, minutesAgo * 60);
    const fleet = [
      ...ready,
      ...[2, 30, 59].map((m) => waiting(m)),
      waiting(61),
      waiting(30, 'Warning'),
      waiting(30, 'Error'),
    ];
    expect(outstandingWork(fleet, now, 5), 'Processing for 2, 30 and 59 minutes').toBe(3);
    expect(outstandingWork(fleet, now, 10), 'a 10-minute period: 120 minutes').toBe(4);
    const rollout = Array.from({ length: 161 }, (_, i) => object(`kyma-${i}`, 'Processing', 20 * 60, { kind: 'Kyma' }));
    expect(isConverging([...ready, ...rollout], 40, now), 'Kymas waiting 20 minutes in a long rollout').toBe(true);
    expect(driftStretch(outstandingWork([...ready, ...rollout], now, 5), 10)).toBe(12);
  });

  it('thins out further as more work waits: 3, 6, then 12 periods apart, past 4 and 16 ticks of outstanding work (ADR 84)', () => {
    expect([10, 11, 40, 41, 160, 161, 30_000].map((n) => driftStretch(n, 10))).toEqual([1, 3, 3, 6, 6, 12, 12]);
    expect(outstandingWork([...ready, ...installing(7), ...stuck(9)], now, 5)).toBe(7);
    const checks = (installs: number) =>
      Array.from({ length: 60 }, (_, t) => {
        const writes = installing(installs).map((c) => ({ ...c, lastWrite: c.lastWrite + t * 60_000 }));
        return selectDue([...ready, ...writes], minute + t, 5, 10, now + t * 60_000).filter((c) => c.state === 'Ready');
      });
    const short = checks(11);
    const long = checks(161);
    expect(short.flat(), 'three periods apart: four checks an hour').toHaveLength(600 * 4);
    expect(long.flat(), 'twelve periods apart: one check an hour').toHaveLength(600);
    expect(new Set(long.flat().map((c) => c.name)).size).toBe(600);
    long.forEach((tick, t) => {
      const shorter = new Set(short[t]?.map((c) => c.name));
      expect(
        tick.every((c) => shorter.has(c.name)),
        "a long stretch's slots are among a short one's",
      ).toBe(true);
    });
  });
});
