// The local eventing runtime over real HTTP (subscribers are node:http servers) and a real kube-apiserver (KCP): the
// ApiServerSource, the broker's ingress, the Trigger filters. Deliveries and retries: eventing-delivery.test.ts.
import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalApiServerSource, LocalBroker, parseTriggers, type EventFilter } from '../local/eventing/index.ts';
import { clusters } from './clusters.ts';
import {
  cleanUp,
  cleanups,
  event,
  recordingLog,
  startBroker,
  subscriber,
  trigger,
  types,
  waitFor,
} from './eventing-helpers.ts';

afterEach(cleanUp);

describe('local ApiServerSource → broker → subscribers (real KCP)', () => {
  const { kcp } = clusters();
  const core = kcp.makeApiClient(CoreV1Api);

  it("delivers add/update/delete of a ConfigMap with Knative's attributes, nothing for objects that existed before", async () => {
    const namespace = `eventing-${Date.now().toString(36)}`;
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'before' }, data: { a: '0' } } });
    const [adds, updates, deletes] = await Promise.all([subscriber(), subscriber(), subscriber()]);
    const of = (change: string): EventFilter[] => [
      { exact: { type: `dev.knative.apiserver.resource.${change}` } },
      { exact: { kind: 'ConfigMap' } },
    ];
    const broker = await startBroker([
      trigger('adds', of('add'), adds.url),
      trigger('updates', of('update'), updates.url),
      trigger('deletes', of('delete'), deletes.url),
    ]);
    const source = new LocalApiServerSource({
      kubeConfig: kcp,
      resources: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace }],
      sink: (e) => broker.publish(e),
      log: recordingLog(),
    });
    cleanups.push(() => source.stop());
    await source.start();
    await source.ready();

    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'after' }, data: { a: '1' } } });
    await waitFor(() => expect(adds.received).toHaveLength(1));
    await core.replaceNamespacedConfigMap({
      name: 'after',
      namespace,
      body: { metadata: { name: 'after' }, data: { a: '2' } },
    });
    await waitFor(() => expect(updates.received).toHaveLength(1));
    await core.deleteNamespacedConfigMap({ name: 'after', namespace });
    await waitFor(() => expect(deletes.received).toHaveLength(1));

    const server = kcp.getCurrentCluster()?.server;
    for (const [subscriberOf, change, a] of [
      [adds, 'add', '1'],
      [updates, 'update', '2'],
      [deletes, 'delete', '2'],
    ] as const) {
      const [request] = subscriberOf.received;
      expect(request?.headers).toMatchObject({
        'ce-specversion': '1.0',
        'ce-type': `dev.knative.apiserver.resource.${change}`,
        'ce-source': server,
        'ce-subject': `/apis/v1/namespaces/${namespace}/configmaps/after`,
        'ce-kind': 'ConfigMap',
        'ce-apiversion': 'v1',
        'ce-name': 'after',
        'ce-namespace': namespace,
        'content-type': 'application/json',
      });
      expect(request?.headers['ce-id']).toBeTruthy();
      expect(request?.headers['ce-knativebrokerttl']).toBeUndefined();
      expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
        kind: 'ConfigMap',
        metadata: { name: 'after', namespace },
        data: { a },
      });
    }
    await broker.idle();
    expect([...adds.received, ...updates.received].map((r) => r.headers['ce-name'])).toEqual(['after', 'after']);
  });

  it('watches cluster-scoped kinds by label selector: empty namespace extension and segment', async () => {
    const label = `t${Date.now().toString(36)}`;
    const namespaces = await subscriber();
    const broker = await startBroker([trigger('namespaces', [{ exact: { kind: 'Namespace' } }], namespaces.url)]);
    const source = new LocalApiServerSource({
      kubeConfig: kcp,
      resources: [{ apiVersion: 'v1', kind: 'Namespace', labelSelector: `eventing-test=${label}` }],
      sink: (e) => broker.publish(e),
      log: recordingLog(),
    });
    cleanups.push(() => source.stop());
    await source.start();
    await source.ready();
    await core.createNamespace({ body: { metadata: { name: `unlabelled-${label}` } } });
    await core.createNamespace({
      body: { metadata: { name: `labelled-${label}`, labels: { 'eventing-test': label } } },
    });
    await waitFor(() => expect(namespaces.received.length).toBeGreaterThanOrEqual(1));
    expect(namespaces.received[0]?.headers).toMatchObject({
      'ce-type': 'dev.knative.apiserver.resource.add',
      'ce-name': `labelled-${label}`,
      'ce-namespace': '',
      'ce-subject': `/apis/v1/namespaces//namespaces/labelled-${label}`,
    });
    expect(namespaces.received.every((r) => r.headers['ce-name'] === `labelled-${label}`)).toBe(true);
  });
});

describe('broker ingress over HTTP', () => {
  it('accepts structured and binary events with 202 and rejects malformed ones with 400', async () => {
    const sink = await subscriber();
    const broker = await startBroker([trigger('ingress', [{ prefix: { type: 'test.ingress.' } }], sink.url)]);
    const post = (headers: Record<string, string>, body: string) =>
      fetch(broker.url, { method: 'POST', headers, body }).then((r) => r.status);
    const structured = JSON.stringify({
      specversion: '1.0',
      id: 's1',
      source: '/curl',
      type: 'test.ingress.structured',
      data: { via: 'structured' },
    });
    expect(await post({ 'content-type': 'application/cloudevents+json' }, structured)).toBe(202);
    expect(
      await post(
        {
          'ce-specversion': '1.0',
          'ce-id': 'b1',
          'ce-source': '/curl',
          'ce-type': 'test.ingress.binary',
          'ce-kind': 'Kyma',
          'content-type': 'application/json',
        },
        '{"via":"binary"}',
      ),
    ).toBe(202);
    expect(await post({ 'ce-specversion': '1.0', 'ce-id': 'b2', 'ce-type': 'test.ingress.binary' }, '')).toBe(400);
    expect(await post({ 'content-type': 'application/cloudevents+json' }, '{not json')).toBe(400);
    expect(await post({ 'content-type': 'application/json' }, '{"plain":"json"}')).toBe(400);
    expect(await fetch(broker.url).then((r) => r.status)).toBe(405);
    await waitFor(() => expect(sink.received).toHaveLength(2));
    const byId = Object.fromEntries(sink.received.map((r) => [r.headers['ce-id'], r]));
    expect(byId.s1?.headers).toMatchObject({ 'ce-type': 'test.ingress.structured', 'ce-source': '/curl' });
    expect(JSON.parse(byId.s1?.body ?? '')).toEqual({ via: 'structured' });
    expect(byId.b1?.headers).toMatchObject({
      'ce-type': 'test.ingress.binary',
      'ce-kind': 'Kyma',
      'content-type': 'application/json',
    });
    expect(JSON.parse(byId.b1?.body ?? '')).toEqual({ via: 'binary' });
    expect(broker.stats().received).toBe(2);
  });
});

describe('Trigger filter dialects', () => {
  it('routes by prefix, suffix, any and not (Triggers read from YAML)', async () => {
    const [prefix, suffix, any, not] = await Promise.all([subscriber(), subscriber(), subscriber(), subscriber()]);
    const urls: Record<string, string> = { prefix: prefix.url, suffix: suffix.url, any: any.url, not: not.url };
    const doc = (name: string, filters: string) =>
      `apiVersion: eventing.knative.dev/v1\nkind: Trigger\nmetadata: {name: ${name}}\nspec:\n  broker: default\n  filters: ${filters}\n  subscriber: {ref: {kind: Service, name: ${name}}}\n`;
    const triggers = parseTriggers(
      [
        doc('prefix', '[{prefix: {type: com.example.order.}}]'),
        doc('suffix', '[{suffix: {subject: .yaml}}]'),
        doc('any', '[{any: [{exact: {type: test.a}}, {exact: {type: test.b}}]}]'),
        doc('not', '[{not: {exact: {kind: Secret}}}]'),
      ].join('---\n'),
      'filters.yaml',
    );
    const broker = new LocalBroker({
      triggers,
      log: recordingLog(),
      resolveSubscriber: (t) => urls[t.subscriber.ref?.name ?? ''] ?? '',
    });
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
