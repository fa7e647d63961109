import { describe, expect, it } from 'vitest';
import { runtimeView, secondPass, type SideOutcome } from './runtime-sync.ts';

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
