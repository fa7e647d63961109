import { describe, expect, it } from 'vitest';
import { slowest } from './edits.ts';

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
