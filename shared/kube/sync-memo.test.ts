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

describe('SyncMemo.once', () => {
  it('pushes once for calls that come while the same push is under way, and shares its outcome', async () => {
    const memo = new SyncMemo(60_000);
    const a = client();
    let pushes = 0;
    let finish: (n: number) => void = () => undefined;
    const push = () => {
      pushes++;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const first = memo.once(a, 'kcp/k1', desired, false, push);
    const second = memo.once(a, 'kcp/k1', structuredClone(desired), true, push);
    finish(2);
    expect(await Promise.all([first, second])).toEqual([2, 2]);
    expect(pushes).toBe(1);
    expect(await memo.once(a, 'kcp/k1', desired, false, push), 'fresh afterwards: skipped').toBeUndefined();
    expect(pushes).toBe(1);
  });

  it('pushes again when forced once the push is over, for changed content, and after a failure', async () => {
    const memo = new SyncMemo(60_000);
    const a = client();
    let pushes = 0;
    const push = async () => ++pushes;
    await memo.once(a, 'kcp/k1', desired, false, push);
    expect(await memo.once(a, 'kcp/k1', desired, true, push), 'forced (a drift check)').toBe(2);
    expect(await memo.once(a, 'kcp/k1', { ...desired, more: 1 }, false, push), 'changed content').toBe(3);
    const failing = () => Promise.reject(new Error('runtime refused'));
    await expect(memo.once(a, 'kcp/k2', desired, false, failing)).rejects.toThrow('runtime refused');
    expect(memo.fresh(a, 'kcp/k2', desired), 'a failed push is not remembered').toBe(false);
    expect(await memo.once(a, 'kcp/k2', desired, false, push)).toBe(4);
  });

  it('reuses a push up to `reuseMs` old when asked to look back further than the TTL', async () => {
    const memo = new SyncMemo(20);
    const a = client();
    let pushes = 0;
    const push = async () => ++pushes;
    await memo.once(a, 'kcp/k1', desired, false, push);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await memo.once(a, 'kcp/k1', desired, false, push, 60_000), 'past the TTL, within reuseMs').toBeUndefined();
    expect(await memo.once(a, 'kcp/k1', desired, false, push), 'past the TTL').toBe(2);
    expect(await memo.once(a, 'kcp/k1', desired, false, push, 0), 'reuseMs 0: never reused').toBe(3);
  });
});
