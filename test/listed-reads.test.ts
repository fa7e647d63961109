// Reads through lists (ADR 57), what a drift check reads a module's objects with: one LIST per kind and namespace by the
// managed-by label, shared by the reads of a few seconds; what the list lacks read by name. Real runtime API server;
// the request tally counts what is sent.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LABEL, MANAGED_BY_RUNTIME } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { ListedReads } from '../shared/kube/listed-reads.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { clusters } from './clusters.ts';

const namespace = `listed-${Date.now().toString(36)}`;
let client: KubeClient;

const configMap = (name: string, labelled: boolean) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...(labelled ? { labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME } } : {}) },
  data: { name },
});
const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name });
/** Requests of `verb` on ConfigMaps sent since counting restarted. */
const sent = (verb: string) =>
  requestTally()
    .filter((r) => r.server === client.server && r.verb === verb && r.resource === 'configmaps')
    .reduce((sum, r) => sum + r.count, 0);

beforeAll(async () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  client = await KubeClient.from(runtime);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const [name, labelled] of [
    ['alpha', true],
    ['bravo', true],
    ['charlie', false],
  ] as const)
    await client.create(configMap(name, labelled));
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace }).catch(() => false);
});

describe('reads through lists', () => {
  it('answers labelled objects from one list, with their kind; the rest by name', async () => {
    const reads = new ListedReads(60_000);
    const [alpha, bravo] = await Promise.all([reads.read(client, ref('alpha')), reads.read(client, ref('bravo'))]);
    expect([alpha?.kind, alpha?.apiVersion, bravo?.metadata?.name]).toEqual(['ConfigMap', 'v1', 'bravo']);
    expect([sent('list'), sent('get')]).toEqual([1, 0]);
    expect((await reads.read(client, ref('charlie')))?.metadata?.name, 'unlabelled: read by name').toBe('charlie');
    expect(await reads.read(client, ref('delta')), 'not there').toBeNull();
    expect([sent('list'), sent('get')]).toEqual([1, 2]);
  });

  it('lists again once the list is let go, and sees what changed since', async () => {
    const reads = new ListedReads(200);
    expect((await reads.read(client, ref('alpha')))?.metadata?.name).toBe('alpha');
    await client.delete(ref('alpha'));
    expect((await reads.read(client, ref('alpha')))?.metadata?.name, 'within the window: as listed').toBe('alpha');
    await sleep(400);
    expect(await reads.read(client, ref('alpha'))).toBeNull();
    expect(sent('list')).toBe(2);
  });

  it('answers undefined when neither the list nor the read by name works (the caller reads and reports again)', async () => {
    const reads = new ListedReads(60_000);
    const unknown = { apiVersion: 'nowhere.example.com/v1', kind: 'Gadget', namespace, name: 'g' };
    expect(await reads.read(client, unknown)).toBeUndefined();
  });
});
