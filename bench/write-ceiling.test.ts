import { describe, expect, it } from 'vitest';
import { percentile } from './write-ceiling.ts';

describe('percentile', () => {
  const latencies = [3, 5, 7, 8, 9, 10, 12, 15, 20, 95];

  it('takes the nearest rank', () => {
    expect(percentile(latencies, 50)).toBe(9);
    expect(percentile(latencies, 90)).toBe(20);
    expect(percentile(latencies, 99)).toBe(95);
    expect(percentile(latencies, 100)).toBe(95);
  });

  it('gives the smallest value for p 0 and clamps p outside 0…100', () => {
    expect(percentile(latencies, 0)).toBe(3);
    expect(percentile(latencies, -5)).toBe(3);
    expect(percentile(latencies, 250)).toBe(95);
  });

  it('works on a single value and is NaN without values', () => {
    expect(percentile([42], 99)).toBe(42);
    expect(percentile([], 50)).toBeNaN();
  });
});
