import { describe, expect, it } from 'vitest';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { moduleReadiness } from '../../shared/render/readiness.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { eventFor, withWorkload } from './namespace-watch.ts';
import { RolloutWatch, worthWatching } from './rollout-watch.ts';

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

describe('eventFor', () => {
  const waiting = { name: 'm', from: 7n, latest: [configMap, unobserved] };
  it("takes the waited workload's states from the call's apply on", () => {
    expect(eventFor(waiting, { type: 'MODIFIED', object: available })).toEqual({
      kind: 'seen',
      applied: [configMap, available],
      settled: true,
    });
    expect(eventFor(waiting, { type: 'ADDED', object: deployment({ observedGeneration: 2 }, '9') })).toEqual({
      kind: 'seen',
      applied: [configMap, deployment({ observedGeneration: 2 }, '9')],
      settled: false,
    });
  });
  it('skips a state older than the apply: it may be the previous spec, settled', () => {
    expect(eventFor(waiting, { type: 'MODIFIED', object: deployment(available.status as object, '6') })).toEqual({
      kind: 'none',
    });
  });
  it("skips other workloads, bookmarks and states without a revision when the call's is known", () => {
    const other = { ...available, metadata: { ...available.metadata, name: 'other' } };
    expect(eventFor(waiting, { type: 'MODIFIED', object: other })).toEqual({ kind: 'none' });
    expect(eventFor(waiting, { type: 'BOOKMARK', object: available })).toEqual({ kind: 'none' });
    const unversioned = { ...available, metadata: { name: 'm', namespace: 'n' } };
    expect(eventFor(waiting, { type: 'MODIFIED', object: unversioned })).toEqual({ kind: 'none' });
    expect(eventFor({ ...waiting, from: undefined }, { type: 'MODIFIED', object: unversioned }).kind).toBe('seen');
  });
  it('ends the wait when the workload is deleted, not for a deletion before the apply (it re-created it)', () => {
    expect(eventFor(waiting, { type: 'DELETED', object: unobserved })).toEqual({ kind: 'ended' });
    expect(eventFor(waiting, { type: 'DELETED', object: deployment({}, '6') })).toEqual({ kind: 'none' });
  });
  it("skips what a runtime's server sends that is no object with metadata", () => {
    for (const object of [undefined, {}, { metadata: null }, 'text'])
      expect(eventFor(waiting, { type: 'MODIFIED', object } as never)).toEqual({ kind: 'none' });
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
