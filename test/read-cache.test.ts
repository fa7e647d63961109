// The KCP watch caches (ADR 15) on a real kube-apiserver: reads served from memory once listed, never older than
// what the call has seen (its event, its own writes), label-scoped collections, fallback to the API server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KubeClient } from '../shared/kube/client.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { currentFreshness, kindKey, withFreshness } from '../shared/kube/freshness.ts';
import { clusters } from './clusters.ts';

const namespace = `read-cache-${Date.now().toString(36)}`;
const CONFIGMAP = { apiVersion: 'v1', kind: 'ConfigMap' };
const KUBECONFIGS = { apiVersion: 'v1', kind: 'Secret', labelSelector: 'operator.kyma-project.io/kyma-name' };
type Data = KubeObject & { data: Record<string, string> };
type Stored = KubeObject & { metadata: { resourceVersion: string } };
let base: KubeClient;
let writer: KubeClient;

const configMap = (name: string, data: Record<string, string>, labels: Record<string, string> = {}) => ({
  ...CONFIGMAP,
  metadata: { name, namespace, labels },
  data,
});

/** The requests any client of this process sends while `work` runs (reads served from the cache send none). */
async function requestsDuring<T>(work: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const spy = vi.spyOn(KubeClient.prototype, 'request');
  try {
    const result = await work();
    return { result, requests: spy.mock.calls.map(([method, path]) => `${method} ${path}`) };
  } finally {
    spy.mockRestore();
  }
}

beforeAll(async () => {
  base = await KubeClient.from(clusters().kcp);
  writer = await KubeClient.from(clusters().kcp);
  await writer.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
});

afterAll(async () => {
  base?.stopCaches();
  await writer?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
});

describe('KCP reads from watch caches', () => {
  it('serves gets and label-selected lists from memory once listed, without a request', async () => {
    await writer.create(configMap('a', { v: '1' }, { kyma: 'k1' }));
    await writer.create(configMap('b', { v: '1' }, { kyma: 'k2' }));
    const view = base.cachingReads([CONFIGMAP]);
    expect(
      (await view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace, labelSelector: 'kyma=k1' })).items.map(
        (c) => c.metadata?.name,
      ),
    ).toEqual(['a']);
    const { result, requests } = await requestsDuring(async () => [
      await view.get<Data>({ ...CONFIGMAP, namespace, name: 'b' }),
      (await view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace, labelSelector: 'kyma=k2' })).items,
      (await view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace, fieldSelector: 'metadata.name=a' })).items,
      await view.get({ ...CONFIGMAP, namespace, name: 'missing' }),
    ]);
    expect(requests).toEqual([]);
    const [b, k2, byName, missing] = result as [Data, unknown[], unknown[], unknown];
    expect(b.data).toEqual({ v: '1' });
    expect(k2).toHaveLength(1);
    expect(byName).toHaveLength(1);
    expect(missing).toBeUndefined();
  });

  it('keeps who wrote an object when (managedFields without their field sets): what the resync orders by', async () => {
    type Written = KubeObject & {
      metadata: { managedFields?: { manager?: string; operation?: string; time?: string; fieldsV1?: unknown }[] };
    };
    const live = await writer.create<Written>(configMap('mf', { v: '1' }));
    const view = base.cachingReads([CONFIGMAP]);
    const cached = await withFreshness(
      () => view.get<Written>({ ...CONFIGMAP, namespace, name: 'mf' }),
      kindKey('v1', 'ConfigMap'),
      live.metadata.resourceVersion,
    );
    const entries = live.metadata.managedFields ?? [];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]?.fieldsV1).toBeDefined();
    expect(cached?.metadata.managedFields).toEqual(
      entries.map(({ manager, operation, time }) => ({ manager, operation, time })),
    );
  });

  it('keeps its label index with every change: a relabelled object moves, a deleted one leaves', async () => {
    const view = base.cachingReads([CONFIGMAP]);
    const names = (labelSelector: string) =>
      view
        .list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace, labelSelector })
        .then((l) => l.items.map((c) => c.metadata?.name));
    await writer.create(configMap('moving', { v: '1' }, { kyma: 'k7' }));
    await vi.waitFor(async () => expect(await names('kyma=k7')).toEqual(['moving']), { timeout: 10_000 });
    const moved = await writer.mergePatch<Stored>(
      { ...CONFIGMAP, namespace, name: 'moving' },
      { metadata: { labels: { kyma: 'k8' } } },
    );
    const after = await withFreshness(
      async () => [await names('kyma=k7'), await names('kyma=k8')],
      kindKey('v1', 'ConfigMap'),
      moved.metadata.resourceVersion,
    );
    expect(after).toEqual([[], ['moving']]);
    await writer.delete({ ...CONFIGMAP, namespace, name: 'moving' });
    await vi.waitFor(async () => expect(await names('kyma=k8')).toEqual([]), { timeout: 10_000 });
  });

  it('hands out copies: a caller changing an object does not change the cache', async () => {
    const view = base.cachingReads([CONFIGMAP]);
    const first = await view.get<Data>({ ...CONFIGMAP, namespace, name: 'a' });
    if (first) first.data.v = 'changed by the caller';
    expect((await view.get<Data>({ ...CONFIGMAP, namespace, name: 'a' }))?.data.v).toBe('1');
  });

  it('scans a whole collection from memory without a request or a copy; uncached, page by page from the API server', async () => {
    const view = base.cachingReads([CONFIGMAP]);
    const names = (c: KubeObject) => c.metadata?.name ?? '';
    await view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace });
    const cached = await requestsDuring(() => view.scan(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace }, names));
    expect(cached.requests).toEqual([]);
    const live = await requestsDuring(() => writer.scan(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace }, names));
    expect(live.requests).toEqual([`GET /api/v1/namespaces/${namespace}/configmaps?limit=500`]);
    expect(cached.result).toEqual(live.result);
    expect(cached.result).toContain('a');
  });

  it('is never older than the event a call is about, nor than its own writes', async () => {
    const view = base.cachingReads([CONFIGMAP]);
    for (let round = 0; round < 20; round++) {
      // Another writer changes the object; the call's event carries the new resourceVersion.
      const changed = await writer.mergePatch<Stored>(
        { ...CONFIGMAP, namespace, name: 'a' },
        { data: { v: `event-${round}` } },
      );
      const seen = await withFreshness(
        () => view.get<Data>({ ...CONFIGMAP, namespace, name: 'a' }),
        kindKey('v1', 'ConfigMap'),
        changed.metadata.resourceVersion,
      );
      expect(seen?.data.v).toBe(`event-${round}`);
      // The call writes itself and reads back in a list.
      const listed = await withFreshness(async () => {
        await view.mergePatch({ ...CONFIGMAP, namespace, name: 'b' }, { data: { v: `own-${round}` } });
        expect(currentFreshness()?.required(kindKey('v1', 'ConfigMap'))).toBeGreaterThan(0n);
        return (await view.list<Data>(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace, labelSelector: 'kyma=k2' }))
          .items;
      });
      expect(listed.map((c) => c.data.v)).toEqual([`own-${round}`]);
    }
  });

  it('sees deletions and objects created later through the watch', async () => {
    const view = base.cachingReads([CONFIGMAP]);
    await view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace });
    const created: Stored = (await writer.create<KubeObject>(configMap('c', { v: '1' }, { kyma: 'k3' }))) as Stored;
    const names = () =>
      view.list(CONFIGMAP.apiVersion, CONFIGMAP.kind, { namespace }).then((l) => l.items.map((c) => c.metadata?.name));
    expect(await withFreshness(names, kindKey('v1', 'ConfigMap'), created.metadata.resourceVersion)).toContain('c');
    await writer.delete({ ...CONFIGMAP, namespace, name: 'c' });
    await vi.waitFor(async () => expect(await names()).not.toContain('c'), { timeout: 10_000 });
  });

  it('watches only the labelled part of a label-scoped kind and sends other reads to the API server', async () => {
    await writer.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'kubeconfig-k1', namespace, labels: { 'operator.kyma-project.io/kyma-name': 'k1' } },
      data: { config: 'eA==' },
    });
    await writer.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'unrelated', namespace },
      data: { x: 'eA==' },
    });
    const view = base.cachingReads([KUBECONFIGS]);
    const selector = 'operator.kyma-project.io/kyma-name=k1';
    expect(
      (await view.list('v1', 'Secret', { namespace, labelSelector: selector })).items.map((s) => s.metadata?.name),
    ).toEqual(['kubeconfig-k1']);
    const cached = await requestsDuring(() => view.list('v1', 'Secret', { namespace, labelSelector: selector }));
    expect(cached.requests).toEqual([]);
    const live = await requestsDuring(async () => [
      await view.list('v1', 'Secret', { namespace }),
      await view.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'unrelated' }),
    ]);
    expect(live.requests).toHaveLength(2);
    expect((live.result[0] as { items: unknown[] }).items).toHaveLength(2);
  });

  it('reads from the API server when the caches are stopped, or for kinds the view does not cache', async () => {
    const view = base.cachingReads([KUBECONFIGS]);
    const other = await requestsDuring(() => view.get({ ...CONFIGMAP, namespace, name: 'a' }));
    expect(other.requests).toHaveLength(1);
    const own = await KubeClient.from(clusters().kcp);
    const ownView = own.cachingReads([CONFIGMAP]);
    await ownView.get({ ...CONFIGMAP, namespace, name: 'a' });
    own.stopCaches();
    const after = await requestsDuring(() => ownView.get({ ...CONFIGMAP, namespace, name: 'a' }));
    expect(after.requests).toHaveLength(1);
  });
});
