import { describe, expect, it } from 'vitest';
import { currentFreshness, kindKey, revisionOf, withFreshness } from './freshness.ts';

describe('Freshness', () => {
  it('keeps, per kind, the highest resourceVersion a call has seen', async () => {
    const required = await withFreshness(
      async () => {
        const freshness = currentFreshness();
        freshness?.note('operator.kyma-project.io/Manifest', '120');
        freshness?.note('operator.kyma-project.io/Manifest', '90');
        freshness?.note('/Secret', '7');
        return [
          freshness?.required('operator.kyma-project.io/Manifest'),
          freshness?.required('/Secret'),
          freshness?.required('operator.kyma-project.io/Kyma'),
        ];
      },
      'operator.kyma-project.io/Manifest',
      '100',
      { kind: 'operator.kyma-project.io/ModuleTemplate', resourceVersion: '55' },
    );
    expect(required).toEqual([120n, 7n, 0n]);
  });

  it('is per call: concurrent calls and code outside a call do not share it', async () => {
    const seen = await Promise.all(
      ['10', '20'].map((rv) =>
        withFreshness(
          async () => {
            await new Promise((r) => setTimeout(r, 5));
            return currentFreshness()?.required('/Secret');
          },
          '/Secret',
          rv,
        ),
      ),
    );
    expect(seen).toEqual([10n, 20n]);
    expect(currentFreshness()).toBeUndefined();
  });

  it('ignores resourceVersions that are not etcd revisions', () => {
    expect(revisionOf('123')).toBe(123n);
    expect(revisionOf('')).toBeUndefined();
    expect(revisionOf('abc')).toBeUndefined();
    expect(revisionOf('1'.repeat(21))).toBeUndefined();
    expect(kindKey('v1', 'Secret')).toBe('/Secret');
    expect(kindKey('operator.kyma-project.io/v1beta2', 'Kyma')).toBe('operator.kyma-project.io/Kyma');
  });
});
