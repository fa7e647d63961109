import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from './limiter.ts';

describe('ConcurrencyLimiter', () => {
  it('runs at most `limit` at once and the rest in arrival order, also with thousands waiting', async () => {
    const limiter = new ConcurrencyLimiter(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 5000 }, (_, i) =>
        limiter.run(async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(i);
          await new Promise((r) => setImmediate(r));
          running--;
        }),
      ),
    );
    expect(peak).toBe(3);
    expect(order).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });

  it('frees its slot when a task fails, and refuses a limit that is not a positive integer', async () => {
    const limiter = new ConcurrencyLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
    expect(() => new ConcurrencyLimiter(0)).toThrow(/positive integer/);
  });
});

describe('ConcurrencyLimiter ranks', () => {
  it('starts waiting tasks lowest rank first, arrival order among equal ranks', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = limiter.run(
      () =>
        new Promise<void>((r) => {
          release = r;
        }),
    );
    const ranks = [5, 3, 9, 3, 1, 5, 0, 9, 2];
    const rest = ranks.map((rank, i) =>
      limiter.run(async () => {
        order.push(`${rank}:${i}`);
      }, rank),
    );
    expect(limiter.waiting).toBe(ranks.length);
    release();
    await Promise.all([first, ...rest]);
    expect(order).toEqual(['0:6', '1:4', '2:8', '3:1', '3:3', '5:0', '5:5', '9:2', '9:7']);
    expect(limiter.waiting).toBe(0);
  });
});
