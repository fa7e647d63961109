import { describe, expect, it } from 'vitest';
import type { KubeClient } from './client.ts';
import { SyncMemo } from './sync-memo.ts';

const client = () => ({}) as KubeClient;
const desired = {
  crds: [{ name: 'kymas' }],
  catalog: { templates: [{ name: 'mike-1.0.0', spec: { version: '1.0.0' } }] },
};

describe('SyncMemo', () => {
  it('is fresh only for the same desired objects, through the same client, within the TTL', () => {
    const memo = new SyncMemo(60_000);
    const [a, b] = [client(), client()];
    expect(memo.fresh(a, 'kcp/k1', desired, 0)).toBe(false);
    memo.remember(a, 'kcp/k1', desired, 0);
    expect(memo.fresh(a, 'kcp/k1', structuredClone(desired), 59_999)).toBe(true);
    expect(memo.fresh(a, 'kcp/k1', desired, 60_000), 'TTL over').toBe(false);
    expect(memo.fresh(a, 'kcp/k2', desired, 1), 'another Kyma').toBe(false);
    expect(memo.fresh(b, 'kcp/k1', desired, 1), 'another client (rotated kubeconfig)').toBe(false);
    const changed = { ...desired, catalog: { templates: [{ name: 'mike-1.0.0', spec: { version: '1.0.1' } }] } };
    expect(memo.fresh(a, 'kcp/k1', changed, 1), 'a changed template').toBe(false);
    expect(memo.known(a, 'kcp/k1', 1), 'something went there').toBe(true);
    expect(memo.known(a, 'kcp/k1', 60_000), 'TTL over').toBe(false);
    expect(memo.known(b, 'kcp/k1', 1)).toBe(false);
  });

  it('compares content, not key order, and forgets on request', () => {
    const memo = new SyncMemo(60_000);
    const a = client();
    memo.remember(a, 'kcp/k1', { x: 1, y: { b: 2, a: 1 } }, 0);
    expect(memo.fresh(a, 'kcp/k1', { y: { a: 1, b: 2 }, x: 1 }, 1)).toBe(true);
    memo.forget(a, 'kcp/k1');
    expect(memo.fresh(a, 'kcp/k1', { x: 1, y: { b: 2, a: 1 } }, 1)).toBe(false);
  });
});
