import { describe, expect, it } from 'vitest';
import { roleOf, usageByRole } from './roles.ts';

describe('where a Knative run spends its CPU', () => {
  it('names the function processes and Knative pods, not the clusters', () => {
    expect(roleOf('apply-remote-3')).toBe('functions');
    expect(roleOf('knative-knative-eventing-mt-broker-filter')).toBe('knative');
    expect(roleOf('kcp-kube-apiserver')).toBeUndefined();
    expect(roleOf('apply-remote')).toBeUndefined();
  });
  it('sums CPU and peak memory per role', () => {
    const usage = (cpuSeconds: number, peakRssBytes: number) => ({ cpuSeconds, rssBytes: 0, peakRssBytes });
    expect(
      usageByRole({
        'apply-remote-1': usage(2, 10),
        'apply-remote-2': usage(3, 20),
        'knative-kcp-system-x': usage(1, 5),
        'runtime-1-etcd': usage(9, 9),
      }),
    ).toEqual({
      functions: { processes: 2, cpuSeconds: 5, peakRssBytes: 30 },
      knative: { processes: 1, cpuSeconds: 1, peakRssBytes: 5 },
    });
  });
});
