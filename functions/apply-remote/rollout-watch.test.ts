import { describe, expect, it } from 'vitest';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { moduleReadiness } from '../../shared/render/readiness.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { RolloutWatch, withWorkload, worthWatching } from './rollout-watch.ts';

const configMap: RuntimeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' } };
const deployment = (status: object, resourceVersion = '7'): RuntimeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'm', namespace: 'n', resourceVersion, generation: 2 } as RuntimeObject['metadata'],
  status,
});
const unobserved = deployment({ observedGeneration: 1 });
const available = deployment({
  observedGeneration: 2,
  conditions: [
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
    { type: 'Available', status: 'True' },
  ],
});
const stalled = deployment({
  observedGeneration: 2,
  conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
});

describe('worthWatching', () => {
  it('watches a module still Processing that has a workload with a version', () => {
    const applied = [configMap, unobserved];
    expect(worthWatching(moduleReadiness(applied), applied, 2000)).toBe(true);
  });
  it('does not watch when off, when settled, or without a workload version', () => {
    const applied = [configMap, unobserved];
    expect(worthWatching(moduleReadiness(applied), applied, 0)).toBe(false);
    expect(worthWatching(moduleReadiness([available]), [available], 2000)).toBe(false);
    expect(worthWatching(moduleReadiness([stalled]), [stalled], 2000)).toBe(false);
    const unversioned = [{ ...unobserved, metadata: { name: 'm', namespace: 'n' } }];
    expect(worthWatching(moduleReadiness(unversioned), unversioned, 2000)).toBe(false);
    expect(worthWatching(moduleReadiness([configMap]), [configMap], 2000)).toBe(false);
  });
});

describe('withWorkload', () => {
  it('puts the workload as seen in its place and says whether the rollout settled', () => {
    expect(withWorkload([configMap, unobserved], available)).toEqual({
      applied: [configMap, available],
      settled: true,
    });
    expect(withWorkload([configMap, unobserved], stalled)).toEqual({ applied: [configMap, stalled], settled: true });
    expect(withWorkload([unobserved, configMap], unobserved)).toEqual({
      applied: [unobserved, configMap],
      settled: false,
    });
  });
});

describe('RolloutWatch', () => {
  /** A runtime that must not be asked anything: settle decides without I/O here. */
  const untouched = new Proxy({} as KubeClient, {
    get: () => {
      throw new Error('the runtime was asked');
    },
  });
  it('sends no watch when the window is 0, no watch is free, or the module is not Processing', async () => {
    const applied = [configMap, unobserved];
    expect(await new RolloutWatch(0).settle(untouched, applied)).toBe(applied);
    expect(await new RolloutWatch(2000, 0).settle(untouched, applied)).toBe(applied);
    expect(await new RolloutWatch(2000).settle(untouched, [available])).toEqual([available]);
  });
});
