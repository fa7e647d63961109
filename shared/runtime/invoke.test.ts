import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { EventAttributes } from './events.ts';
import { invoke, type LifecycleFunction } from './invoke.ts';
import { createLogger } from './logger.ts';

const log = createLogger('test', 'silent');
const event = (name: string, id: string): EventAttributes => ({
  specversion: '1.0', id, type: 'test.event', source: '/test', kind: 'Kyma', apiversion: 'operator.kyma-project.io/v1beta2', namespace: 'kcp-system', name,
} as EventAttributes);

describe('invoke', () => {
  it('runs calls for the same object one after another and calls for different objects concurrently', async () => {
    const trace: string[] = [];
    const fn: LifecycleFunction = {
      name: 'probe', accepts: ['test.event'],
      async handle({ event: e }) {
        trace.push(`start ${String(e.id)}`);
        await sleep(e.id === 'a1' ? 60 : 10);
        trace.push(`end ${String(e.id)}`);
        if (e.id === 'a1') throw new Error('first call fails');
        return undefined;
      },
    };
    const outcomes = await Promise.all([invoke(fn, event('a', 'a1'), log), invoke(fn, event('a', 'a2'), log), invoke(fn, event('b', 'b1'), log)]);
    expect(outcomes.map((o) => o.status)).toEqual([500, 204, 204]);
    expect(trace.indexOf('start a2')).toBeGreaterThan(trace.indexOf('end a1'));
    expect(trace.indexOf('start b1')).toBeLessThan(trace.indexOf('end a1'));
  });
});
