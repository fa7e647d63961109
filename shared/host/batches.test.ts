import { describe, expect, it } from 'vitest';
import { Batches } from './batches.ts';

const deferred = () => {
  let resolve: (v: string) => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe('Batches', () => {
  it("runs the first call at once; calls arriving meanwhile share one follow-up, the newest one's work", async () => {
    const batches = new Batches();
    const ran: string[] = [];
    const first = deferred();
    const a = batches.run('kyma-1', 10n, () => {
      ran.push('a');
      return first.promise;
    });
    const b = batches.run('kyma-1', 12n, async () => {
      ran.push('b');
      return 'b';
    });
    const c = batches.run('kyma-1', 15n, async () => {
      ran.push('c');
      return 'c';
    });
    const d = batches.run('kyma-1', 11n, async () => {
      ran.push('d');
      return 'd';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a']);
    first.resolve('a');
    expect(await Promise.all([a, b, c, d])).toEqual(['a', 'c', 'c', 'c']);
    expect(ran).toEqual(['a', 'c']);
    expect(batches.joined).toBe(2);
  });

  it('keeps batches apart, starts afresh once a batch is idle, and shares a failure with every joined call', async () => {
    const batches = new Batches();
    const first = deferred();
    const a = batches.run('kyma-1', 1n, () => first.promise);
    const other = batches.run('kyma-2', 1n, async () => 'other');
    expect(await other).toBe('other');
    const b = batches.run('kyma-1', 2n, () => Promise.reject(new Error('409')));
    const c = batches.run('kyma-1', 1n, async () => 'never');
    first.reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await expect(b).rejects.toThrow('409');
    await expect(c).rejects.toThrow('409');
    expect(await batches.run('kyma-1', 3n, async () => 'fresh')).toBe('fresh');
  });
});

describe('Batches that settle', () => {
  it('waits for more calls before the first run; a call that does not settle starts the batch at once', async () => {
    const batches = new Batches();
    const ran: string[] = [];
    const a = batches.run(
      'kyma-1',
      1n,
      async () => {
        ran.push('a');
        return 'a';
      },
      60_000,
    );
    const b = batches.run(
      'kyma-1',
      2n,
      async () => {
        ran.push('b');
        return 'b';
      },
      60_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([]);
    const c = batches.run('kyma-1', 3n, async () => {
      ran.push('c');
      return 'c';
    });
    expect(await Promise.all([a, b, c])).toEqual(['c', 'c', 'c']);
    expect(ran).toEqual(['c']);
  });

  it('runs after the settle time when nothing else comes', async () => {
    const batches = new Batches();
    const started = performance.now();
    expect(await batches.run('kyma-1', 1n, async () => performance.now() - started, 50)).toBeGreaterThanOrEqual(40);
  });
});
