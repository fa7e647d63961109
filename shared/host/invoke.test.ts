import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { RESYNC_DUE, type EventAttributes } from './events.ts';
import { callTally, countRequests, requestTally, tally } from '../kube/request-tally.ts';
import { invoke, type LifecycleFunction } from './invoke.ts';
import { createLogger } from './logger.ts';
import { markStep } from './steps.ts';

const log = createLogger('test', 'silent');
const event = (name: string, id: string): EventAttributes =>
  ({
    specversion: '1.0',
    id,
    type: 'test.event',
    source: '/test',
    kind: 'Kyma',
    apiversion: 'operator.kyma-project.io/v1beta2',
    namespace: 'kcp-system',
    name,
  }) as EventAttributes;

describe('invoke', () => {
  it('runs calls for the same object one after another and calls for different objects concurrently', async () => {
    const trace: string[] = [];
    const fn: LifecycleFunction = {
      name: 'probe',
      accepts: ['test.event'],
      async handle({ event: e }) {
        trace.push(`start ${String(e.id)}`);
        await sleep(e.id === 'a1' ? 60 : 10);
        trace.push(`end ${String(e.id)}`);
        if (e.id === 'a1') throw new Error('first call fails');
        return undefined;
      },
    };
    const outcomes = await Promise.all([
      invoke(fn, event('a', 'a1'), log),
      invoke(fn, event('a', 'a2'), log),
      invoke(fn, event('b', 'b1'), log),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 204, 204]);
    expect(trace.indexOf('start a2')).toBeGreaterThan(trace.indexOf('end a1'));
    expect(trace.indexOf('start b1')).toBeLessThan(trace.indexOf('end a1'));
  });

  /** A function whose call `k1` takes `slowMs` and the others 10 ms; `trace` has each call's start and end. */
  const traced = (slowMs: number, parts: Pick<LifecycleFunction, 'serialOf' | 'batchOf'>) => {
    const trace: string[] = [];
    const fn: LifecycleFunction = {
      name: 'probe',
      accepts: ['test.event'],
      ...parts,
      async handle({ event: e }) {
        trace.push(`start ${String(e.id)}`);
        await sleep(e.id === 'k1' ? slowMs : 10);
        trace.push(`end ${String(e.id)}`);
        return undefined;
      },
    };
    const before = (a: string, b: string) => trace.indexOf(a) < trace.indexOf(b);
    return { fn, before };
  };

  it('runs calls about different objects one after another when the function names one serial key, batched or not', async () => {
    const { fn, before } = traced(60, {
      serialOf: (_, key) => (key.name === 'other' ? undefined : { serial: 'the-kyma', waitMs: 10_000 }),
      batchOf: (_, key) => (key.name === 'manifest' ? { batch: 'the-kyma', settleMs: 0 } : undefined),
    });
    await Promise.all([
      invoke(fn, event('kyma', 'k1'), log),
      invoke(fn, event('manifest', 'm1'), log),
      invoke(fn, event('other', 'o1'), log),
    ]);
    expect(before('end k1', 'start m1')).toBe(true);
    expect(before('start o1', 'end k1')).toBe(true);
  });

  it('runs a call beside a slow one with its serial key once it has waited waitMs; its own object still waits', async () => {
    const { fn, before } = traced(200, { serialOf: () => ({ serial: 'the-kyma', waitMs: 30 }) });
    await Promise.all([
      invoke(fn, event('kyma', 'k1'), log),
      invoke(fn, event('manifest', 'm1'), log),
      invoke(fn, event('kyma', 'k2'), log),
    ]);
    expect(before('start m1', 'end k1')).toBe(true);
    expect(before('end k1', 'start k2')).toBe(true);
  });

  it("names a failed call by the last step it marked (upstream's requeue reason, ADR 40); concurrent calls keep their own", async () => {
    const fn: LifecycleFunction = {
      name: 'probe',
      accepts: ['test.event'],
      async handle({ event: e }) {
        markStep('crds_sync');
        await sleep(e.id === 'c1' ? 30 : 5);
        if (e.id === 'c1') markStep('module_catalog_sync');
        throw new Error(`${String(e.id)} fails`);
      },
    };
    const [c1, d1] = await Promise.all([invoke(fn, event('c', 'c1'), log), invoke(fn, event('d', 'd1'), log)]);
    expect(c1 && 'step' in c1 ? c1.step : undefined).toBe('module_catalog_sync');
    expect(d1 && 'step' in d1 ? d1.step : undefined).toBe('crds_sync');
    const unmarked = await invoke({ ...fn, handle: () => Promise.reject(new Error('x')) }, event('e', 'e1'), log);
    expect('step' in unmarked).toBe(false);
  });
});

describe('request tally by caller', () => {
  it("counts a drift check's requests apart from the function's other calls, those by event", async () => {
    const fn: LifecycleFunction = {
      name: 'probe',
      accepts: ['test.event', RESYNC_DUE],
      async handle() {
        tally('https://rt', 'GET', '/api/v1/namespaces/kyma-system/configmaps/c', '');
        return undefined;
      },
    };
    countRequests(true);
    await invoke(fn, event('a', 'e1'), log);
    await invoke(fn, { ...event('a', 'e2'), type: RESYNC_DUE, resyncreason: 'drift' } as EventAttributes, log);
    await invoke(fn, { ...event('a', 'e3'), type: RESYNC_DUE, resyncreason: 'pending' } as EventAttributes, log);
    expect(requestTally().map((r) => [r.caller, r.count])).toEqual([
      ['probe ← test.event Kyma', 1],
      ['probe (drift)', 1],
      ['probe ← resync.due Kyma', 1],
    ]);
    await invoke(fn, { ...event('b', 'e4'), type: RESYNC_DUE, resyncreason: 'pending' } as EventAttributes, log);
    expect(callTally(), 'the calls handled, by the same names').toEqual({
      'probe ← test.event Kyma': 1,
      'probe (drift)': 1,
      'probe ← resync.due Kyma': 2,
    });
    countRequests(false);
    expect(callTally()).toEqual({});
  });
});
