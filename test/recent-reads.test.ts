// `any` reads through one client within seconds take one read (ADR 88): a drift check's functions, resolve-template and
// aggregate-status, both read the runtime Kyma at any version; in one process the second takes the first's answer. A
// live read always goes to the server, a write forgets what was read. Real runtime API server; the request tally counts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { clusters } from './clusters.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };
const namespace = 'default';
const name = `recent-${Date.now().toString(36)}`;
const ref = { apiVersion: 'v1', kind: 'ConfigMap', namespace, name };
const object = (value: string): ConfigMap => ({ ...ref, metadata: { name, namespace }, data: { value } });
let client: KubeClient;

const cluster = () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  return runtime;
};
/** GETs of configmaps this test's clients sent since counting restarted. */
const gets = () =>
  requestTally()
    .filter((r) => r.server === client.server && r.verb === 'get' && r.resource === 'configmaps')
    .reduce((sum, r) => sum + r.count, 0);
const valueOf = async (c: KubeClient, freshness: 'any' | 'live') =>
  (await c.get<ConfigMap>(ref, freshness))?.data?.value;

beforeAll(async () => {
  client = await KubeClient.from(cluster());
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await client.delete(ref).catch(() => false);
});

describe('reads at any version through one client', () => {
  // A write is followed by counts, not by the value of an `any` read: the server's watch cache may lag a moment.
  it('take one read of a missing object, and a create through the client forgets it', async () => {
    expect([await valueOf(client, 'any'), await valueOf(client, 'any')]).toEqual([undefined, undefined]);
    expect(gets()).toBe(1);
    await client.create(object('one'));
    await valueOf(client, 'any');
    expect(gets()).toBe(2);
  });

  it('take what was read, while live reads go to the server each time and renew it', async () => {
    expect(await valueOf(client, 'live')).toBe('one');
    countRequests(true);
    const [first, second] = await Promise.all([valueOf(client, 'any'), valueOf(client, 'any')]);
    expect([first, second, await valueOf(client, 'any')]).toEqual(['one', 'one', 'one']);
    expect(gets(), 'answered by the live read').toBe(0);
    expect([await valueOf(client, 'live'), await valueOf(client, 'live')]).toEqual(['one', 'one']);
    expect(gets()).toBe(2);
  });

  it('read again after a write through the client, and a live read renews what another wrote', async () => {
    await client.mergePatch(ref, { data: { value: 'two' } });
    countRequests(true);
    await valueOf(client, 'any');
    expect(gets(), 'forgotten by the write').toBe(1);
    expect(await valueOf(client, 'live')).toBe('two');
    const other = await KubeClient.from(cluster());
    await other.mergePatch(ref, { data: { value: 'three' } });
    expect(await valueOf(client, 'any'), 'kept: another client wrote').toBe('two');
    expect(await valueOf(client, 'live')).toBe('three');
    expect(await valueOf(client, 'any'), 'renewed by the live read').toBe('three');
    expect(gets()).toBe(3);
    await client.delete(ref);
    await valueOf(client, 'any');
    expect(gets(), 'forgotten by the delete').toBe(4);
  });
});
