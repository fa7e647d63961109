import { describe, expect, it } from 'vitest';
import { isDue } from './decide.ts';

describe('isDue', () => {
  it.each([['Processing'], ['Error'], ['Warning'], [undefined]])('a %s object is due every minute', (state) => {
    expect([0, 1, 2, 3, 4].every((minute) => isDue({ name: 'k', state, deleting: false }, minute, 5))).toBe(true);
  });

  it('a deleting object is due every minute', () => {
    expect(isDue({ name: 'k', state: 'Ready', deleting: true }, 7, 5)).toBe(true);
  });

  it('a Ready object is due exactly once per drift period, and Ready objects spread over the period', () => {
    const hits = [0, 1, 2, 3, 4].filter((minute) => isDue({ name: 'kyma-42', state: 'Ready', deleting: false }, minute, 5));
    expect(hits).toHaveLength(1);
    const buckets = new Set(Array.from({ length: 200 }, (_, i) => [0, 1, 2, 3, 4].find((m) => isDue({ name: `kyma-${i}`, state: 'Ready', deleting: false }, m, 5))));
    expect(buckets.size).toBe(5);
  });
});
