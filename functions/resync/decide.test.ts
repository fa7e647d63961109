import { describe, expect, it } from 'vitest';
import { bySlot, isDue, reasonOf, resyncSteps, selectDue, type Candidate } from './decide.ts';

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
    // The order alone: drift slots not stretched (three outstanding over a budget of two would stretch them).
    const names = (budget: number) => selectDue(all, minute, 5, budget, now, 1).map((c) => c.name);
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

  it("sends a Kyma's Manifests due for drift checks in one modules.due where the first was (ADR 94)", () => {
    const ready = (name: string, slot?: string): Candidate =>
      candidate(name, { kind: 'Manifest', state: 'Ready', ...(slot ? { slot } : {}) });
    const steps = resyncSteps({
      ...view([
        candidate('k1', { state: 'Ready' }),
        ready('k1-a', 'k1'),
        candidate('k1-b', { kind: 'Manifest', slot: 'k1' }),
        ready('k1-c', 'k1'),
        ready('lone'),
      ]),
      driftPeriodMinutes: 1,
    });
    expect(steps).toEqual([
      { step: 'SendResyncDue', kind: 'Kyma', name: 'k1', reason: 'drift' },
      { step: 'SendModulesDue', kind: 'Kyma', name: 'k1', reason: 'drift', manifests: ['k1-a', 'k1-c'] },
      { step: 'SendResyncDue', kind: 'Manifest', name: 'k1-b', reason: 'pending' },
      { step: 'SendResyncDue', kind: 'Manifest', name: 'lone', reason: 'drift' },
    ]);
  });

  it('keeps to the budget', () => {
    expect(resyncSteps({ ...view(Array.from({ length: 30 }, (_, i) => candidate(`k${i}`))), budget: 7 })).toHaveLength(
      7,
    );
  });
});
