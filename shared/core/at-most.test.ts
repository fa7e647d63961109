import { describe, expect, it } from 'vitest';
import { mapAtMost } from './at-most.ts';

describe('mapAtMost', () => {
  it('runs at most `limit` at once and answers in the order of the items', async () => {
    let running = 0;
    let most = 0;
    const results = await mapAtMost([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });

  it('rejects with the first failure and starts no later slice', async () => {
    const started: number[] = [];
    const failing = mapAtMost([1, 2, 3, 4], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('two failed');
      return n;
    });
    await expect(failing).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
  });
});
