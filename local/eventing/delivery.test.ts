import { CloudEvent } from 'cloudevents';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { deliverInProcess } from './delivery.ts';

const event = new CloudEvent({ id: 'e-1', source: 'test', type: 'test.event', data: {} });

describe('an in-process delivery', () => {
  it("leaves no listener on the broker's stop signal, however many deliveries ran", async () => {
    const stopping = new AbortController();
    for (let i = 0; i < 100; i++)
      await deliverInProcess(async () => ({ kind: 'acked', status: 204 }), event, 1_000, stopping.signal);
    await deliverInProcess(
      async () => {
        throw new Error('boom');
      },
      event,
      undefined,
      stopping.signal,
    );
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });

  it('does not call the subscriber once the broker has stopped', async () => {
    const stopping = new AbortController();
    stopping.abort();
    let called = 0;
    const outcome = await deliverInProcess(
      async () => {
        called++;
        return { kind: 'acked', status: 204 };
      },
      event,
      1_000,
      stopping.signal,
    );
    expect(outcome).toEqual({ kind: 'failed', retryable: true, error: 'the broker stopped' });
    expect(called).toBe(0);
  });

  it('fails retryably when the broker stops while the subscriber still runs', async () => {
    const stopping = new AbortController();
    const running = deliverInProcess(() => new Promise(() => undefined), event, undefined, stopping.signal);
    stopping.abort();
    expect(await running).toEqual({ kind: 'failed', retryable: true, error: 'the broker stopped' });
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });
});
