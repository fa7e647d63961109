import { describe, expect, it } from 'vitest';
import {
  bySlot,
  DRIFT_STRETCH,
  isConverging,
  isDue,
  reasonOf,
  resyncSteps,
  selectDue,
  type Candidate,
} from './decide.ts';

describe('isDue', () => {
  it.each([['Processing'], ['Error'], ['Warning'], [undefined]])('a %s object is due every minute', (state) => {
    expect(
      [0, 1, 2, 3, 4].every((minute) => isDue({ name: 'k', state, deleting: false, lastOwnWrite: 0 }, minute, 5)),
    ).toBe(true);
  });

  it('a deleting object is due every minute', () => {
    expect(isDue({ name: 'k', state: 'Ready', deleting: true, lastOwnWrite: 7 * 60_000 }, 7, 5)).toBe(true);
  });

  it('a Ready object is due exactly once per drift period, and Ready objects spread over the period', () => {
    const hits = [0, 1, 2, 3, 4].filter((minute) =>
      isDue({ name: 'kyma-42', state: 'Ready', deleting: false, lastOwnWrite: 0 }, 100 + minute, 5),
    );
    expect(hits).toHaveLength(1);
    const buckets = new Set(
      Array.from({ length: 200 }, (_, i) =>
        [0, 1, 2, 3, 4].find((m) =>
          isDue({ name: `kyma-${i}`, state: 'Ready', deleting: false, lastOwnWrite: 0 }, 100 + m, 5),
        ),
      ),
    );
    expect(buckets.size).toBe(5);
  });

  it('a Ready object the functions wrote within the last drift period is not due: its first check comes a period after the write at the earliest', () => {
    const writtenAt = 1000 * 60_000 + 30_000;
    const due = Array.from({ length: 20 }, (_, i) => 1000 + i).filter((minute) =>
      isDue({ name: 'kyma-42', state: 'Ready', deleting: false, lastOwnWrite: writtenAt }, minute, 5),
    );
    expect(due.length).toBeGreaterThan(0);
    expect(Math.min(...due) * 60_000 - writtenAt).toBeGreaterThanOrEqual(5 * 60_000);
    expect(Math.min(...due) * 60_000 - writtenAt).toBeLessThan(10 * 60_000);
    const [first = 0, second = 0] = due;
    expect(second - first, 'then once per period').toBe(5);
    const others = Array.from({ length: 5 }, (_, i) => 1000 + i).filter((minute) =>
      isDue({ name: 'kyma-42', state: 'Ready', deleting: false }, minute, 5, minute * 60_000),
    );
    expect(others, 'written by others only (upstream before a takeover): checked in its slot').toHaveLength(1);
    const waiting = Array.from({ length: 5 }, (_, i) => 1000 + i).filter((minute) =>
      isDue(
        { name: 'kyma-42', state: 'Ready', deleting: false, lastOwnWrite: writtenAt, awaitsMaintenance: true },
        minute,
        5,
      ),
    );
    expect(waiting, 'an upgrade waiting for its maintenance window: checked in its slot, written or not').toHaveLength(
      1,
    );
  });
});

describe('drift slots by Kyma (ADR 57)', () => {
  const ready = (name: string, slot?: string) => ({
    name,
    state: 'Ready',
    deleting: false,
    lastOwnWrite: 0,
    ...(slot ? { slot } : {}),
  });
  const minuteOf = (c: ReturnType<typeof ready>) => [0, 1, 2, 3, 4].find((m) => isDue(c, 100 + m, 5));

  it("a Kyma's Manifests are checked in its minute, whatever their names", () => {
    const kymas = Array.from({ length: 50 }, (_, i) => `kyma-${i}`);
    for (const kyma of kymas) {
      const minutes = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((m) => minuteOf(ready(`${kyma}-${m}`, kyma)));
      expect(new Set([...minutes, minuteOf(ready(kyma))])).toEqual(new Set([minuteOf(ready(kyma))]));
    }
    const unslotted = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((m) => minuteOf(ready(`kyma-7-${m}`)));
    expect(new Set(unslotted).size, 'by their own names they would spread').toBeGreaterThan(1);
  });

  it('sends the objects of one slot one after the other, each slot where its first object was', () => {
    const c = (kind: string, name: string, slot?: string): Candidate => ({
      kind,
      name,
      state: 'Ready',
      deleting: false,
      lastWrite: 0,
      ...(slot ? { slot } : {}),
    });
    const due = [
      c('Kyma', 'k1'),
      c('Manifest', 'k1-a', 'k1'),
      c('Manifest', 'k2-a', 'k2'),
      c('Manifest', 'k1-b', 'k1'),
      c('Manifest', 'lone'),
      c('Manifest', 'k2-b', 'k2'),
      c('Kyma', 'k2'),
    ];
    expect(bySlot(due).map((x) => x.name)).toEqual(['k1', 'k1-a', 'k1-b', 'k2-a', 'k2-b', 'lone', 'k2']);
  });
});

describe('selectDue', () => {
  const minute = 29_000_000;
  const now = minute * 60_000;
  const candidate = (name: string, state: string | undefined, secondsAgo: number, deleting = false) => ({
    kind: 'Manifest',
    name,
    state,
    deleting,
    lastWrite: now - secondsAgo * 1000,
    lastOwnWrite: now - secondsAgo * 1000,
  });

  it('sends everything due while the objects not Ready fit in the budget, in listing order', () => {
    const all = [candidate('a', 'Processing', 0), candidate('b', 'Error', 300), candidate('c', undefined, 90)];
    expect(selectDue(all, minute, 5, 3, now).map((c) => c.name)).toEqual(['a', 'b', 'c']);
  });

  it('over budget: quiet objects before busy ones; deleting and drifting Ready ones always go', () => {
    const ready = Array.from({ length: 50 }, (_, i) => candidate(`ready-${i}`, 'Ready', 1800));
    const slot = ready.filter((c) => isDue(c, minute, 5)).map((c) => c.name);
    const all = [
      candidate('busy', 'Processing', 5),
      candidate('busier', 'Processing', 1),
      candidate('stuck', 'Error', 600),
      candidate('gone', 'Ready', 0, true),
      ...ready,
      candidate('new', undefined, 120),
    ];
    // The order alone: not converging (three outstanding over a budget of two would stretch the drift slots).
    const names = (budget: number) => selectDue(all, minute, 5, budget, now, false).map((c) => c.name);
    expect(new Set(names(2))).toEqual(new Set(['stuck', 'gone', 'new', ...slot]));
    expect(new Set(names(3))).toEqual(new Set(['stuck', 'gone', 'new', 'busy', ...slot]));
    expect(names(4)).toContain('busier');
  });

  it('caps the objects not Ready at the budget and rotates among the quiet ones, so none starves', () => {
    const all = Array.from({ length: 3000 }, (_, i) => candidate(`k-${i}`, 'Error', 600 + i));
    const seen = new Set<string>();
    for (let tick = 0; tick < 12; tick++) {
      const picked = selectDue(all, minute + tick, 5, 1000, now + tick * 60_000);
      expect(picked).toHaveLength(1000);
      for (const c of picked) seen.add(c.name);
    }
    expect(seen.size).toBeGreaterThan(2900);
  });

  it("over budget: a Kyma's waiting objects are picked together, the Kymas rotating (ADR 80)", () => {
    const kymas = Array.from({ length: 100 }, (_, k) => [
      { ...candidate(`kyma-${k}`, undefined, 600), kind: 'Kyma' },
      ...Array.from({ length: 4 }, (_, m) => ({ ...candidate(`kyma-${k}-${m}`, undefined, 600), slot: `kyma-${k}` })),
    ]);
    const kymaOf = (c: Candidate) => c.slot ?? c.name;
    const seen = new Set<string>();
    for (let tick = 0; tick < 10; tick++) {
      const picked = selectDue(kymas.flat(), minute + tick, 5, 50, now + tick * 60_000);
      expect(picked).toHaveLength(50);
      const perKyma = new Map<string, number>();
      for (const c of picked) perKyma.set(kymaOf(c), (perKyma.get(kymaOf(c)) ?? 0) + 1);
      expect(perKyma.size, 'ten whole Kymas, not fifty objects of fifty Kymas').toBe(10);
      expect([...perKyma.values()].every((count) => count === 5)).toBe(true);
      for (const kyma of perKyma.keys()) seen.add(kyma);
    }
    expect(seen.size, 'the Kymas rotate').toBeGreaterThan(50);
  });
});

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
    const waitingKymas = Array.from({ length: 500 }, (_, i) =>
      object(`kyma-${i}`, 'Processing', 600, { kind: 'Kyma' }),
    );
    expect(isConverging([...ready, ...waitingKymas], 10, now), 'a state not written for a minute is no rollout').toBe(
      false,
    );
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
});

describe('reasonOf', () => {
  it('a Ready object gets a drift check; one not Ready or being deleted gets the safety net (ADR 27)', () => {
    expect(reasonOf({ state: 'Ready', deleting: false })).toBe('drift');
    expect([
      reasonOf({ state: 'Processing', deleting: false }),
      reasonOf({ state: 'Error', deleting: false }),
      reasonOf({ state: undefined, deleting: false }),
      reasonOf({ state: 'Ready', deleting: true }),
    ]).toEqual(['pending', 'pending', 'pending', 'pending']);
  });
});

describe('resyncSteps (the events of a tick, in order)', () => {
  const candidate = (name: string, extra: Partial<Candidate> = {}): Candidate => ({
    kind: 'Kyma',
    name,
    state: 'Processing',
    deleting: false,
    lastWrite: 0,
    ...extra,
  });
  const metas = [
    { name: 'mandatory', channels: 1, mandatory: true },
    { name: 'none', channels: 0, mandatory: false },
    { name: 'sample', channels: 2, mandatory: false },
  ];
  const view = (candidates: Candidate[]) => ({
    candidates,
    metas,
    minute: 100,
    now: 100 * 60_000,
    driftPeriodMinutes: 5,
    budget: 10,
  });

  it('sends the due objects first, with why, then one release tick naming a meta with channels that is not mandatory', () => {
    const steps = resyncSteps(
      view([candidate('k1', { awaitsRelease: true }), candidate('k1-sample', { kind: 'Manifest', deleting: true })]),
    );
    expect(steps).toEqual([
      { step: 'SendResyncDue', kind: 'Kyma', name: 'k1', reason: 'pending' },
      { step: 'SendResyncDue', kind: 'Manifest', name: 'k1-sample', reason: 'pending' },
      { step: 'SendReleaseTick', kind: 'ModuleReleaseMeta', name: 'sample', reason: 'release' },
    ]);
  });

  it('sends no release tick when no Kyma waits for a release, or only a deleting one does', () => {
    expect(resyncSteps(view([candidate('k1')])).map((s) => s.step)).toEqual(['SendResyncDue']);
    expect(resyncSteps(view([candidate('k1', { awaitsRelease: true, deleting: true })])).map((s) => s.step)).toEqual([
      'SendResyncDue',
    ]);
  });

  it('keeps to the budget', () => {
    expect(resyncSteps({ ...view(Array.from({ length: 30 }, (_, i) => candidate(`k${i}`))), budget: 7 })).toHaveLength(
      7,
    );
  });
});
