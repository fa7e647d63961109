// A Kyma's runtime namespace and drift checks (ADR 27, ADR 56): a drift check reads the namespace and puts back what
// was changed on it, but a Kyma's other Manifests, each checked in its own minute of the drift period, trust that
// check for five minutes instead of reading the namespace once each. Real runtime API server; the request tally
// counts the reads.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { checkRemoteNamespace, ensureRemoteNamespace, forgetRemoteNamespace } from '../shared/kube/remote-namespace.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { clusters } from './clusters.ts';

const namespace = `drift-ns-${Date.now().toString(36)}`;
const ref = { apiVersion: 'v1', kind: 'Namespace', name: namespace };
const cluster = () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  return runtime;
};
let client: KubeClient;

/** Requests of `verb` on namespaces this test's clients sent since counting restarted. */
const sent = (verb: string) =>
  requestTally()
    .filter((r) => r.server === client.server && r.verb === verb && r.resource === 'namespaces')
    .reduce((sum, r) => sum + r.count, 0);
const labelsNow = async () =>
  (await client.get<KubeObject & { metadata: { labels?: Record<string, string> } }>(ref))?.metadata.labels ?? {};

beforeAll(async () => {
  client = await KubeClient.from(cluster());
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await client.delete(ref).catch(() => false);
});

describe('the runtime namespace under drift checks', () => {
  it('is read by the first drift check and trusted by the next ones through the same client', async () => {
    await checkRemoteNamespace(client, namespace);
    expect(await labelsNow()).toMatchObject({ 'istio-injection': 'enabled' });
    countRequests(true);
    await checkRemoteNamespace(client, namespace);
    await checkRemoteNamespace(client, namespace);
    await ensureRemoteNamespace(client, namespace, true);
    expect([sent('get'), sent('apply')]).toEqual([0, 0]);
  });

  it('is applied unread by a caller that does not reuse it (creating the runtime Kyma, a catalog that met a 404)', async () => {
    await client.mergePatch(ref, { metadata: { labels: { 'istio-injection': null } } });
    countRequests(true);
    await ensureRemoteNamespace(client, namespace, false);
    expect([sent('get'), sent('apply')]).toEqual([0, 1]);
    expect(await labelsNow()).toMatchObject({ 'istio-injection': 'enabled' });
  });

  it('is read again by a drift check after an apply into it failed, and its labels put back', async () => {
    await client.mergePatch(ref, { metadata: { labels: { 'istio-injection': null } } });
    forgetRemoteNamespace(client, namespace);
    countRequests(true);
    await checkRemoteNamespace(client, namespace);
    expect([sent('get'), sent('apply')]).toEqual([1, 1]);
    expect(await labelsNow()).toMatchObject({ 'istio-injection': 'enabled' });
  });

  it('is read by a drift check when only an install ensured it through that client', async () => {
    client = await KubeClient.from(cluster());
    await ensureRemoteNamespace(client, namespace, true);
    await client.mergePatch(ref, { metadata: { labels: { 'istio-injection': null } } });
    countRequests(true);
    await ensureRemoteNamespace(client, namespace, true);
    expect(sent('get')).toBe(0);
    await checkRemoteNamespace(client, namespace);
    expect([sent('get'), sent('apply')]).toEqual([1, 1]);
    expect(await labelsNow()).toMatchObject({ 'istio-injection': 'enabled' });
  });
});

describe('the runtime namespace under the resync drift checks (ADR 90)', () => {
  it('is trusted for `recheckMs` after a drift check read it, then read again and its labels put back', async () => {
    client = await KubeClient.from(cluster());
    await checkRemoteNamespace(client, namespace, 'any', 1_500);
    await client.mergePatch(ref, { metadata: { labels: { 'istio-injection': null } } });
    countRequests(true);
    await checkRemoteNamespace(client, namespace, 'any', 1_500);
    expect([sent('get'), sent('apply')], 'within recheckMs: trusted').toEqual([0, 0]);
    await sleep(1_600);
    await checkRemoteNamespace(client, namespace, 'any', 1_500);
    expect([sent('get'), sent('apply')], 'past it: read and repaired').toEqual([1, 1]);
    expect(await labelsNow()).toMatchObject({ 'istio-injection': 'enabled' });
  });
});
