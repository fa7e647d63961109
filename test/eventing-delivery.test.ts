// The local broker's deliveries over real HTTP (subscribers are node:http servers): retries, dead letters, coalescing
// while a slot is taken, reply chaining.
import { CloudEvent } from 'cloudevents';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalBroker } from '../local/eventing/index.ts';
import {
  cleanUp,
  cleanups,
  event,
  recordingLog,
  reply,
  startBroker,
  status,
  subscriber,
  trigger,
  waitFor,
  type Subscriber,
} from './eventing-helpers.ts';

afterEach(cleanUp);

describe('delivery and retries', () => {
  it('retries 503, 503 then acks on 204: three attempts, not dead-lettered', async () => {
    const flaky = await subscriber(status(503, 503, 204));
    const broker = await startBroker([trigger('flaky', [{ exact: { type: 'test.retry' } }], flaky.url, { retry: 3 })]);
    await broker.publish(event('test.retry'));
    await broker.idle();
    expect(flaky.received).toHaveLength(3);
    expect(broker.stats()).toMatchObject({ received: 1, delivered: 1, retries: 2, deadLettered: 0 });
  });

  it('does not retry a 400: one attempt, dead-lettered and logged once', async () => {
    const rejecting = await subscriber(status(400));
    const log = recordingLog();
    const broker = await startBroker([trigger('rejecting', [{ exact: { type: 'test.bad' } }], rejecting.url)], log);
    await broker.publish(event('test.bad', { id: 'bad-1' }));
    await broker.idle();
    expect(rejecting.received).toHaveLength(1);
    expect(broker.stats()).toMatchObject({ delivered: 0, retries: 0, deadLettered: 1 });
    expect(broker.deadLetters()).toMatchObject([
      { trigger: 'rejecting', status: 400, attempts: 1, event: { id: 'bad-1', type: 'test.bad' } },
    ]);
    expect(log.warnings).toEqual(['event dead-lettered']);
  });

  it('dead-letters after retry + 1 attempts of 5xx, a non-CloudEvent 2xx body (502) and timeouts', async () => {
    const down = await subscriber(status(503));
    const chatty = await subscriber((_, __, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
    const slow = await subscriber((_, __, res) => void setTimeout(() => res.writeHead(204).end(), 2000));
    const broker = await startBroker([
      trigger('down', [{ exact: { type: 'test.down' } }], down.url, { retry: 2, backoffPolicy: 'linear' }),
      trigger('chatty', [{ exact: { type: 'test.chatty' } }], chatty.url, { retry: 1 }),
      trigger('slow', [{ exact: { type: 'test.slow' } }], slow.url, { retry: 1, timeoutMs: 200 }),
    ]);
    await Promise.all(['test.down', 'test.chatty', 'test.slow'].map((type) => broker.publish(event(type))));
    await broker.idle();
    expect([down.received.length, chatty.received.length, slow.received.length]).toEqual([3, 2, 2]);
    const letters = Object.fromEntries(broker.deadLetters().map((l) => [l.trigger, l]));
    expect(letters.down).toMatchObject({ status: 503, attempts: 3 });
    expect(letters.chatty).toMatchObject({
      status: 502,
      attempts: 2,
      error: expect.stringMatching(/not recognized as CloudEvent/) as unknown,
    });
    expect(letters.slow).toMatchObject({
      attempts: 2,
      error: expect.stringMatching(/no answer within 200 ms/) as unknown,
    });
    expect(letters.slow?.status).toBeUndefined();
    expect(broker.stats()).toMatchObject({ retries: 4, deadLettered: 3, delivered: 0 });
  });

  it('dead-letters at once when a Trigger has no usable subscriber URL', async () => {
    const broker = await startBroker([trigger('nowhere', [], '')]);
    await broker.publish(event('test.nowhere'));
    await broker.idle();
    expect(broker.deadLetters()).toMatchObject([
      { trigger: 'nowhere', attempts: 0, error: expect.stringMatching(/^no subscriber URL/) as unknown },
    ]);
  });

  it('dead-letters deliveries still waiting for a retry when the broker stops', async () => {
    const down = await subscriber(status(503));
    const broker = await startBroker([
      trigger('down', [{ exact: { type: 'test.stop' } }], down.url, { retry: 5, backoffDelayMs: 60_000 }),
    ]);
    await broker.publish(event('test.stop'));
    await waitFor(() => expect(down.received).toHaveLength(1));
    await broker.stop();
    expect(broker.deadLetters()).toMatchObject([
      { trigger: 'down', status: 503, attempts: 1, error: expect.stringMatching(/^the broker stopped/) as unknown },
    ]);
    await expect(broker.publish(event('test.stop'))).rejects.toThrow(/stopped/);
    await expect(fetch(broker.url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('coalescing deliveries that wait for a slot', () => {
  /** A subscriber that holds its first request until released, so the rest queue behind it (one slot). */
  async function heldSubscriber(): Promise<Subscriber & { release: () => void }> {
    let held: ServerResponse | undefined;
    let released = false;
    const sub = await subscriber((_, n, res) => (n === 1 && !released ? (held = res) : res.writeHead(204).end()));
    return {
      ...sub,
      release: () => {
        released = true;
        held?.writeHead(204).end();
      },
    };
  }

  /** A broker with one Trigger to `sub` and one delivery slot, stopped after the test. */
  async function oneSlotBroker(sub: Subscriber, coalesce?: boolean): Promise<LocalBroker> {
    const broker = new LocalBroker({
      triggers: [trigger('one', [], sub.url)],
      log: recordingLog(),
      resolveSubscriber: (t) => t.subscriber.uri ?? '',
      maxConcurrentDeliveries: 1,
      ...(coalesce === undefined ? {} : { coalesce }),
    });
    await broker.start();
    cleanups.push(() => broker.stop());
    return broker;
  }

  const about = (subject: string, n: number, type = 'test.object') =>
    new CloudEvent<unknown>({ type, source: '/test', subject, id: `${subject}-${n}`, data: { n } });

  it.each([true, false])(
    'coalesce=%s: newer events about one object replace the waiting one, in its place; others keep theirs',
    async (coalesce) => {
      const sub = await heldSubscriber();
      const broker = await oneSlotBroker(sub, coalesce);
      await broker.publish(about('kymas/a', 0));
      await waitFor(() => expect(sub.received).toHaveLength(1));
      for (let n = 1; n <= 5; n++) await broker.publish(about('kymas/a', n));
      await broker.publish(about('kymas/b', 1));
      await broker.publish(about('kymas/a', 6, 'test.deleted'));
      await broker.publish(new CloudEvent<unknown>({ type: 'test.object', source: '/test', id: 'no-subject-1' }));
      await broker.publish(new CloudEvent<unknown>({ type: 'test.object', source: '/test', id: 'no-subject-2' }));
      sub.release();
      await broker.idle();
      const ids = sub.received.map((r) => r.headers['ce-id']);
      if (coalesce) {
        expect(ids).toEqual(['kymas/a-0', 'kymas/a-5', 'kymas/b-1', 'kymas/a-6', 'no-subject-1', 'no-subject-2']);
        expect(broker.stats()).toMatchObject({ received: 10, delivered: 6, coalesced: 4 });
      } else {
        expect(ids).toEqual([
          'kymas/a-0',
          'kymas/a-1',
          'kymas/a-2',
          'kymas/a-3',
          'kymas/a-4',
          'kymas/a-5',
          'kymas/b-1',
          'kymas/a-6',
          'no-subject-1',
          'no-subject-2',
        ]);
        expect(broker.stats()).toMatchObject({ received: 10, delivered: 10, coalesced: 0 });
      }
      await broker.publish(about('kymas/a', 7));
      await broker.idle();
      expect(sub.received.at(-1)?.headers['ce-id'], 'a started delivery no longer takes newer events').toBe(
        'kymas/a-7',
      );
    },
  );

  it('a delivery that stands for several events names the versions of all of them (ADR 83)', async () => {
    const sub = await heldSubscriber();
    const broker = await oneSlotBroker(sub);
    const version = (subject: string, resourceVersion: string) =>
      new CloudEvent<unknown>({
        type: 'test.object',
        source: '/test',
        subject,
        id: `${subject}@${resourceVersion}`,
        data: { metadata: { resourceVersion } },
      });
    await broker.publish(version('kymas/a', '10'));
    await waitFor(() => expect(sub.received).toHaveLength(1));
    for (const v of ['11', '12', '13']) await broker.publish(version('kymas/a', v));
    await broker.publish(version('kymas/b', '20'));
    await broker.publish(about('kymas/c', 1));
    await broker.publish(version('kymas/c', '31'));
    sub.release();
    await broker.idle();
    const delivered = sub.received.map((r) => [r.headers['ce-id'], r.headers['ce-coalescedversions']]);
    expect(delivered).toEqual([
      ['kymas/a@10', undefined],
      ['kymas/a@13', '11 12 13'],
      ['kymas/b@20', undefined],
      ['kymas/c@31', '? 31'],
    ]);
  });
});

describe('reply chaining', () => {
  it('re-ingests binary and structured replies; knativebrokerttl never reaches subscribers', async () => {
    const a = await subscriber(reply(() => event('test.b', { subject: 'from-a' })));
    const s = await subscriber(reply(() => event('test.b', { subject: 'from-s' }), 'structured'));
    const b = await subscriber();
    const broker = await startBroker([
      trigger('a', [{ exact: { type: 'test.a' } }], a.url),
      trigger('s', [{ exact: { type: 'test.s' } }], s.url),
      trigger('b', [{ exact: { type: 'test.b' } }], b.url),
    ]);
    await broker.publish(event('test.a'));
    await broker.publish(event('test.s'));
    await broker.idle();
    expect(b.received.map((r) => r.headers['ce-subject']).sort()).toEqual(['from-a', 'from-s']);
    expect(
      [...a.received, ...s.received, ...b.received].every((r) => r.headers['ce-knativebrokerttl'] === undefined),
    ).toBe(true);
    expect(broker.stats()).toMatchObject({ received: 4, delivered: 4, replies: 2, droppedTtl: 0 });
    expect(broker.stats().receivedByType).toEqual({ 'test.a': 1, 'test.s': 1, 'test.b': 2 });
  });

  it('a subscriber replying to its own Trigger loops until the TTL runs out, then the event is dropped', async () => {
    const loop = await subscriber(reply(() => event('test.loop')));
    const broker = await startBroker([trigger('loop', [{ exact: { type: 'test.loop' } }], loop.url)]);
    await broker.publish(event('test.loop', { knativebrokerttl: 10 }));
    await broker.idle();
    expect(loop.received).toHaveLength(10);
    expect(broker.stats()).toMatchObject({ delivered: 10, replies: 10, droppedTtl: 1 });

    await broker.publish(event('test.loop'));
    await broker.idle();
    expect(loop.received).toHaveLength(10 + 255);
    expect(broker.stats().droppedTtl).toBe(2);
  });
});
