import { describe, expect, it } from 'vitest';
import { slowest, untilSecond } from './edits.ts';

describe('the slowest edits', () => {
  it('names the three slowest Kymas, slowest first, in seconds', () => {
    const took: [string, number][] = [
      ['kyma-0', 2_100],
      ['kyma-100', 67_220],
      ['kyma-200', 3_000],
      ['kyma-300', 25_040],
      ['kyma-400', 44_990],
    ];
    expect(slowest(took)).toBe('kyma-100 67.2 s, kyma-400 45.0 s, kyma-300 25.0 s');
    expect(slowest(took.slice(0, 1))).toBe('kyma-0 2.1 s');
  });
});

describe('the edits timed to a second of the minute', () => {
  it('waits until the next such second, not at all when it is now', () => {
    const minute = 29_000_000 * 60_000;
    expect(untilSecond(1, minute)).toBe(1_000);
    expect(untilSecond(1, minute + 1_000)).toBe(0);
    expect(untilSecond(1, minute + 1_500)).toBe(59_500);
    expect(untilSecond(0, minute + 59_999)).toBe(1);
  });
});
