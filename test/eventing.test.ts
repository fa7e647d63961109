// The local eventing runtime over real HTTP (subscribers are node:http servers) and a real kube-apiserver (KCP).
import { CoreV1Api } from '@kubernetes/client-node';
import { CloudEvent, HTTP } from 'cloudevents';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DELIVERY, LocalApiServerSource, LocalBroker, parseTriggers, type EventFilter, type EventingLog, type Trigger } from '../local/eventing/index.ts';
import { clusters } from './clusters.ts';

interface Request { readonly headers: IncomingHttpHeaders; readonly body: string }
type Respond = (request: Request, count: number, res: ServerResponse) => void;
interface Subscriber { readonly url: string; readonly received: Request[] }

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ack: Respond = (_, __, res) => res.writeHead(204).end();
const status = (...codes: number[]): Respond => (_, n, res) => res.writeHead(codes[Math.min(n, codes.length) - 1] ?? 204).end();
const reply = (event: () => CloudEvent<unknown>, mode: 'binary' | 'structured' = 'binary'): Respond => (_, __, res) => {
  const message = HTTP[mode](event());
  res.writeHead(200, message.headers as Record<string, string>).end(message.body as string);
};

/** A real HTTP subscriber on 127.0.0.1 that records every request. */
async function subscriber(respond: Respond = ack): Promise<Subscriber> {
  const received: Request[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      respond(request, received.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

function recordingLog(): EventingLog & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug: () => undefined, info: () => undefined, warn: (_, message) => warnings.push(message), error: (_, message) => warnings.push(message) };
}

const trigger = (name: string, filters: EventFilter[], url: string, delivery: Partial<Trigger['delivery']> = {}): Trigger =>
  ({ name, broker: 'default', filters, subscriber: { uri: url }, delivery: { ...DEFAULT_DELIVERY, backoffDelayMs: 20, ...delivery } });

async function startBroker(triggers: Trigger[], log: EventingLog = recordingLog()): Promise<LocalBroker> {
  const broker = new LocalBroker({ triggers, log, resolveSubscriber: (t) => t.subscriber.uri ?? '' });
  await broker.start();
  cleanups.push(() => broker.stop());
  return broker;
}

const event = (type: string, extra: Record<string, unknown> = {}) => new CloudEvent<unknown>({ type, source: '/test', data: { n: 1 }, ...extra });
const types = (s: Subscriber) => s.received.map((r) => r.headers['ce-type']);
const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 50 });

describe('local ApiServerSource → broker → subscribers (real KCP)', () => {
  const { kcp } = clusters();
  const core = kcp.makeApiClient(CoreV1Api);

  it('delivers add/update/delete of a ConfigMap with Knative\'s attributes, nothing for objects that existed before', async () => {
    const namespace = `eventing-${Date.now().toString(36)}`;
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'before' }, data: { a: '0' } } });
    const [adds, updates, deletes] = await Promise.all([subscriber(), subscriber(), subscriber()]);
    const of = (change: string): EventFilter[] => [{ exact: { type: `dev.knative.apiserver.resource.${change}` } }, { exact: { kind: 'ConfigMap' } }];
    const broker = await startBroker([trigger('adds', of('add'), adds.url), trigger('updates', of('update'), updates.url), trigger('deletes', of('delete'), deletes.url)]);
    const source = new LocalApiServerSource({ kubeConfig: kcp, resources: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace }], sink: (e) => broker.publish(e), log: recordingLog() });
    cleanups.push(() => source.stop());
    await source.start();
    await source.ready();

    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'after' }, data: { a: '1' } } });
    await waitFor(() => expect(adds.received).toHaveLength(1));
    await core.replaceNamespacedConfigMap({ name: 'after', namespace, body: { metadata: { name: 'after' }, data: { a: '2' } } });
    await waitFor(() => expect(updates.received).toHaveLength(1));
    await core.deleteNamespacedConfigMap({ name: 'after', namespace });
    await waitFor(() => expect(deletes.received).toHaveLength(1));

    const server = kcp.getCurrentCluster()?.server;
    for (const [subscriberOf, change, a] of [[adds, 'add', '1'], [updates, 'update', '2'], [deletes, 'delete', '2']] as const) {
      const [request] = subscriberOf.received;
      expect(request?.headers).toMatchObject({
        'ce-specversion': '1.0', 'ce-type': `dev.knative.apiserver.resource.${change}`, 'ce-source': server,
        'ce-subject': `/apis/v1/namespaces/${namespace}/configmaps/after`, 'ce-kind': 'ConfigMap', 'ce-apiversion': 'v1',
        'ce-name': 'after', 'ce-namespace': namespace, 'content-type': 'application/json',
      });
      expect(request?.headers['ce-id']).toBeTruthy();
      expect(request?.headers['ce-knativebrokerttl']).toBeUndefined();
      expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'after', namespace }, data: { a } });
    }
    await broker.idle();
    expect([...adds.received, ...updates.received].map((r) => r.headers['ce-name'])).toEqual(['after', 'after']);
  });

  it('watches cluster-scoped kinds by label selector: empty namespace extension and segment', async () => {
    const label = `t${Date.now().toString(36)}`;
    const namespaces = await subscriber();
    const broker = await startBroker([trigger('namespaces', [{ exact: { kind: 'Namespace' } }], namespaces.url)]);
    const source = new LocalApiServerSource({ kubeConfig: kcp, resources: [{ apiVersion: 'v1', kind: 'Namespace', labelSelector: `eventing-test=${label}` }], sink: (e) => broker.publish(e), log: recordingLog() });
    cleanups.push(() => source.stop());
    await source.start();
    await source.ready();
    await core.createNamespace({ body: { metadata: { name: `unlabelled-${label}` } } });
    await core.createNamespace({ body: { metadata: { name: `labelled-${label}`, labels: { 'eventing-test': label } } } });
    await waitFor(() => expect(namespaces.received.length).toBeGreaterThanOrEqual(1));
    expect(namespaces.received[0]?.headers).toMatchObject({
      'ce-type': 'dev.knative.apiserver.resource.add', 'ce-name': `labelled-${label}`, 'ce-namespace': '',
      'ce-subject': `/apis/v1/namespaces//namespaces/labelled-${label}`,
    });
    expect(namespaces.received.every((r) => r.headers['ce-name'] === `labelled-${label}`)).toBe(true);
  });
});

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
    expect(broker.deadLetters()).toMatchObject([{ trigger: 'rejecting', status: 400, attempts: 1, event: { id: 'bad-1', type: 'test.bad' } }]);
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
    expect(letters.chatty).toMatchObject({ status: 502, attempts: 2, error: expect.stringMatching(/not recognized as CloudEvent/) as unknown });
    expect(letters.slow).toMatchObject({ attempts: 2, error: expect.stringMatching(/no answer within 200 ms/) as unknown });
    expect(letters.slow?.status).toBeUndefined();
    expect(broker.stats()).toMatchObject({ retries: 4, deadLettered: 3, delivered: 0 });
  });

  it('dead-letters at once when a Trigger has no usable subscriber URL', async () => {
    const broker = await startBroker([trigger('nowhere', [], '')]);
    await broker.publish(event('test.nowhere'));
    await broker.idle();
    expect(broker.deadLetters()).toMatchObject([{ trigger: 'nowhere', attempts: 0, error: expect.stringMatching(/^no subscriber URL/) as unknown }]);
  });

  it('dead-letters deliveries still waiting for a retry when the broker stops', async () => {
    const down = await subscriber(status(503));
    const broker = await startBroker([trigger('down', [{ exact: { type: 'test.stop' } }], down.url, { retry: 5, backoffDelayMs: 60_000 })]);
    await broker.publish(event('test.stop'));
    await waitFor(() => expect(down.received).toHaveLength(1));
    await broker.stop();
    expect(broker.deadLetters()).toMatchObject([{ trigger: 'down', status: 503, attempts: 1, error: expect.stringMatching(/^the broker stopped/) as unknown }]);
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
    return { ...sub, release: () => { released = true; held?.writeHead(204).end(); } };
  }

  const about = (subject: string, n: number, type = 'test.object') => new CloudEvent<unknown>({ type, source: '/test', subject, id: `${subject}-${n}`, data: { n } });

  it.each([true, false])('coalesce=%s: newer events about one object replace the waiting one, in its place; others keep theirs', async (coalesce) => {
    const sub = await heldSubscriber();
    const broker = new LocalBroker({ triggers: [trigger('one', [], sub.url)], log: recordingLog(), resolveSubscriber: (t) => t.subscriber.uri ?? '', maxConcurrentDeliveries: 1, coalesce });
    await broker.start();
    cleanups.push(() => broker.stop());
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
      expect(ids).toEqual(['kymas/a-0', 'kymas/a-1', 'kymas/a-2', 'kymas/a-3', 'kymas/a-4', 'kymas/a-5', 'kymas/b-1', 'kymas/a-6', 'no-subject-1', 'no-subject-2']);
      expect(broker.stats()).toMatchObject({ received: 10, delivered: 10, coalesced: 0 });
    }
    await broker.publish(about('kymas/a', 7));
    await broker.idle();
    expect(sub.received.at(-1)?.headers['ce-id'], 'a started delivery no longer takes newer events').toBe('kymas/a-7');
  });
});

describe('reply chaining', () => {
  it('re-ingests binary and structured replies; knativebrokerttl never reaches subscribers', async () => {
    const a = await subscriber(reply(() => event('test.b', { subject: 'from-a' })));
    const s = await subscriber(reply(() => event('test.b', { subject: 'from-s' }), 'structured'));
    const b = await subscriber();
    const broker = await startBroker([
      trigger('a', [{ exact: { type: 'test.a' } }], a.url), trigger('s', [{ exact: { type: 'test.s' } }], s.url),
      trigger('b', [{ exact: { type: 'test.b' } }], b.url),
    ]);
    await broker.publish(event('test.a'));
    await broker.publish(event('test.s'));
    await broker.idle();
    expect(b.received.map((r) => r.headers['ce-subject']).sort()).toEqual(['from-a', 'from-s']);
    expect([...a.received, ...s.received, ...b.received].every((r) => r.headers['ce-knativebrokerttl'] === undefined)).toBe(true);
    expect(broker.stats()).toMatchObject({ received: 4, delivered: 4, replies: 2, droppedTtl: 0 });
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

describe('broker ingress over HTTP', () => {
  it('accepts structured and binary events with 202 and rejects malformed ones with 400', async () => {
    const sink = await subscriber();
    const broker = await startBroker([trigger('ingress', [{ prefix: { type: 'test.ingress.' } }], sink.url)]);
    const post = (headers: Record<string, string>, body: string) => fetch(broker.url, { method: 'POST', headers, body }).then((r) => r.status);
    const structured = JSON.stringify({ specversion: '1.0', id: 's1', source: '/curl', type: 'test.ingress.structured', data: { via: 'structured' } });
    expect(await post({ 'content-type': 'application/cloudevents+json' }, structured)).toBe(202);
    expect(await post({ 'ce-specversion': '1.0', 'ce-id': 'b1', 'ce-source': '/curl', 'ce-type': 'test.ingress.binary', 'ce-kind': 'Kyma', 'content-type': 'application/json' }, '{"via":"binary"}')).toBe(202);
    expect(await post({ 'ce-specversion': '1.0', 'ce-id': 'b2', 'ce-type': 'test.ingress.binary' }, '')).toBe(400);
    expect(await post({ 'content-type': 'application/cloudevents+json' }, '{not json')).toBe(400);
    expect(await post({ 'content-type': 'application/json' }, '{"plain":"json"}')).toBe(400);
    expect(await fetch(broker.url).then((r) => r.status)).toBe(405);
    await waitFor(() => expect(sink.received).toHaveLength(2));
    const byId = Object.fromEntries(sink.received.map((r) => [r.headers['ce-id'], r]));
    expect(byId.s1?.headers).toMatchObject({ 'ce-type': 'test.ingress.structured', 'ce-source': '/curl' });
    expect(JSON.parse(byId.s1?.body ?? '')).toEqual({ via: 'structured' });
    expect(byId.b1?.headers).toMatchObject({ 'ce-type': 'test.ingress.binary', 'ce-kind': 'Kyma', 'content-type': 'application/json' });
    expect(JSON.parse(byId.b1?.body ?? '')).toEqual({ via: 'binary' });
    expect(broker.stats().received).toBe(2);
  });
});

describe('Trigger filter dialects', () => {
  it('routes by prefix, suffix, any and not (Triggers read from YAML)', async () => {
    const [prefix, suffix, any, not] = await Promise.all([subscriber(), subscriber(), subscriber(), subscriber()]);
    const urls: Record<string, string> = { prefix: prefix.url, suffix: suffix.url, any: any.url, not: not.url };
    const doc = (name: string, filters: string) => `apiVersion: eventing.knative.dev/v1\nkind: Trigger\nmetadata: {name: ${name}}\nspec:\n  broker: default\n  filters: ${filters}\n  subscriber: {ref: {kind: Service, name: ${name}}}\n`;
    const triggers = parseTriggers([
      doc('prefix', '[{prefix: {type: com.example.order.}}]'), doc('suffix', '[{suffix: {subject: .yaml}}]'),
      doc('any', '[{any: [{exact: {type: test.a}}, {exact: {type: test.b}}]}]'), doc('not', '[{not: {exact: {kind: Secret}}}]'),
    ].join('---\n'), 'filters.yaml');
    const broker = new LocalBroker({ triggers, log: recordingLog(), resolveSubscriber: (t) => urls[t.subscriber.ref?.name ?? ''] ?? '' });
    cleanups.push(() => broker.stop());
    await broker.publish(event('com.example.order.created', { subject: 'x.json', kind: 'Secret' }));
    await broker.publish(event('test.a', { subject: '/m.yaml', kind: 'ConfigMap' }));
    await broker.publish(event('other', { kind: 'Secret' }));
    await broker.publish(event('test.b'));
    await broker.idle();
    expect(types(prefix)).toEqual(['com.example.order.created']);
    expect(types(suffix)).toEqual(['test.a']);
    expect(types(any).sort()).toEqual(['test.a', 'test.b']);
    expect(types(not).sort()).toEqual(['test.a', 'test.b']);
  });
});
