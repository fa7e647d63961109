import { describe, expect, it } from 'vitest';
import { pushReuse, runtimeView, secondPass, type SideOutcome } from './runtime-sync.ts';

const synced = (catalog: boolean): SideOutcome['sync'] => ({
  crds: { ok: true, message: 'CRDs synced' },
  ...(catalog ? { catalog: { ok: true, message: 'catalog synced' } } : {}),
});

describe('secondPass: a runtime side synced again after a resolution that came meanwhile (ADR 82)', () => {
  it("takes the second pass's outcome and keeps the upstream watcher objects the first pass removed", () => {
    const first: SideOutcome = { sync: synced(false), upstreamWatcher: ['ValidatingWebhookConfiguration klm-watcher'] };
    const merged = secondPass(first, { sync: synced(true) });
    expect(merged.sync).toEqual(synced(true));
    expect(merged.upstreamWatcher).toEqual(['ValidatingWebhookConfiguration klm-watcher']);
    expect(runtimeView(merged)?.watcherRemoved).toBe(true);
  });

  it('reports no removal when neither pass removed anything, and a pending step of the second pass', () => {
    const merged = secondPass({ sync: synced(false) }, { sync: synced(true), pending: 'catalog not served yet' });
    expect(merged.upstreamWatcher).toBeUndefined();
    expect(runtimeView(merged)).toMatchObject({ watcherRemoved: false, pending: 'catalog not served yet' });
  });
});

describe("pushReuse: how a runtime side's push takes this instance's last one", () => {
  const PERIOD = 300_000;
  it('a drift check (`any`) reuses one under 1.5 drift periods old: the catalog is listed every other check (ADR 90)', () => {
    expect(pushReuse('any', false, PERIOD)).toEqual({ force: false, withinMs: 450_000 });
  });

  it("a runtime watch's full check and a Kyma awaiting its runtime Kyma never reuse one", () => {
    expect(pushReuse('live', false, PERIOD)).toEqual({ force: true, withinMs: 0 });
    expect(pushReuse(false, true, PERIOD)).toEqual({ force: true, withinMs: 0 });
    expect(pushReuse('any', true, PERIOD)).toEqual({ force: true, withinMs: 0 });
  });

  it('any other event reuses one under one drift period old (ADR 17)', () => {
    expect(pushReuse(false, false, PERIOD)).toEqual({ force: false, withinMs: PERIOD });
  });
});
