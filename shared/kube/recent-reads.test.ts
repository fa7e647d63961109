import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentReads } from './recent-reads.ts';

const KYMA = '/apis/operator.kyma-project.io/v1beta2/namespaces/kyma-system/kymas/default';

/** A reader that answers `object` (a fresh copy each time, as a parsed answer is) and counts its calls. */
function reader(object: { spec: { channel: string } } | undefined) {
  const calls = { count: 0 };
  const read = () => {
    calls.count++;
    return Promise.resolve(object && structuredClone(object));
  };
  return { calls, read };
}

afterEach(() => vi.useRealTimers());

describe('RecentReads', () => {
  it('answers an `any` read from one read within the TTL, as a copy no caller can change for another', async () => {
    const recent = new RecentReads(15_000);
    const { calls, read } = reader({ spec: { channel: 'regular' } });
    const first = await recent.get(KYMA, true, read, 0);
    if (first) first.spec.channel = 'changed by the first caller';
    expect(await recent.get(KYMA, true, read, 14_999)).toEqual({ spec: { channel: 'regular' } });
    expect(calls.count).toBe(1);
    await recent.get(KYMA, true, read, 15_000);
    expect(calls.count, 'TTL over').toBe(2);
  });

  it('shares a read in flight and keeps a missing object as missing', async () => {
    const recent = new RecentReads(15_000);
    const { calls, read } = reader(undefined);
    expect(await Promise.all([recent.get(KYMA, true, read, 0), recent.get(KYMA, true, read, 1)])).toEqual([
      undefined,
      undefined,
    ]);
    expect(calls.count).toBe(1);
  });

  it('reads live every time, keeping a live answer only in place of one kept', async () => {
    const recent = new RecentReads(15_000);
    const old = reader({ spec: { channel: 'regular' } });
    const edited = reader({ spec: { channel: 'fast' } });
    await recent.get(KYMA, false, old.read, 0);
    await recent.get(KYMA, true, old.read, 1);
    expect(old.calls.count, 'a live read keeps nothing new').toBe(2);
    expect(await recent.get(KYMA, false, edited.read, 2)).toEqual({ spec: { channel: 'fast' } });
    expect(await recent.get(KYMA, true, old.read, 3), 'renewed by the live read').toEqual({
      spec: { channel: 'fast' },
    });
    expect([old.calls.count, edited.calls.count]).toEqual([2, 1]);
  });

  it('forgets an object written to, its status or a create of its name, and only that object', async () => {
    const recent = new RecentReads(15_000);
    const { calls, read } = reader({ spec: { channel: 'regular' } });
    const other = `${KYMA}-2`;
    for (const write of [`${KYMA}?fieldManager=x&force=true`, `${KYMA}/status`, KYMA]) {
      await recent.get(KYMA, true, read, 0);
      await recent.get(other, true, read, 0);
      recent.forget(write);
      const before = calls.count;
      await recent.get(KYMA, true, read, 1);
      await recent.get(other, true, read, 1);
      expect(calls.count - before, write).toBe(1);
    }
  });

  it('drops a failed read, and a kept object once the TTL is over', async () => {
    vi.useFakeTimers();
    const recent = new RecentReads(15_000);
    await expect(recent.get(KYMA, true, () => Promise.reject(new Error('unreachable')), 0)).rejects.toThrow();
    const { calls, read } = reader({ spec: { channel: 'regular' } });
    await recent.get(KYMA, true, read, 1);
    expect(calls.count, 'the failure was not kept').toBe(1);
    vi.advanceTimersByTime(15_000);
    await recent.get(KYMA, true, read, 2);
    expect(calls.count, 'gone with its timer').toBe(2);
  });
});
