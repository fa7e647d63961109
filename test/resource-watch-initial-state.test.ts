// An announcing watch (the runtime watch's, ADR 86) on the real runtime API server starts without a LIST: the API
// server begins a WATCH at no version with an ADDED event for each object there. A watch that does not announce (the
// ApiServerSource's) still lists first, silently. Counted with the request tally.
import type { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { createLogger } from '../shared/host/logger.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { ResourceWatch } from '../shared/kube/resource-watch.ts';
import { eventually } from './e2e/world.ts';

const namespace = `initial-state-${Date.now().toString(36)}`;
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
let client: KubeClient;

/** This client's requests since counting restarted, by verb (connections left out). */
const verbs = () =>
  requestTally()
    .filter((r) => r.server === client.server && r.resource === 'configmaps')
    .reduce<Record<string, number>>((all, r) => ({ ...all, [r.verb]: (all[r.verb] ?? 0) + r.count }), {});

function watchOf(announceExisting: boolean, events: CloudEvent<unknown>[]): ResourceWatch {
  return new ResourceWatch({
    client,
    source: 'runtime',
    log: createLogger('initial-state-test', 'silent'),
    announceExisting,
    resource: { apiVersion: 'v1', kind: 'ConfigMap', namespace },
    sink: async (event) => void events.push(event),
  });
}
const names = (events: CloudEvent<unknown>[], change: string) =>
  events.filter((e) => e.type.endsWith(change)).map((e) => (e.data as { metadata: { name: string } }).metadata.name);

beforeAll(async () => {
  client = await KubeClient.from(loadKubeConfig(inject('controlPlane').runtimes[0] as string));
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } as never);
  await client.create(configMap('before') as never);
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await client?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace }).catch(() => undefined);
});

describe("a watch's start", () => {
  it('announces what exists and what comes with one WATCH and no LIST', async () => {
    const events: CloudEvent<unknown>[] = [];
    const watch = watchOf(true, events);
    watch.start();
    try {
      await eventually('the existing ConfigMap announced', async () => names(events, '.add').includes('before'));
      await client.create(configMap('after') as never);
      await eventually('the new ConfigMap announced', async () => names(events, '.add').includes('after'));
      await client.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: 'after' });
      await eventually('its deletion announced', async () => names(events, '.delete').includes('after'));
      expect(names(events, '.add')).toEqual(['before', 'after']);
      expect(verbs()).toEqual({ watch: 1, create: 1, delete: 1 });
    } finally {
      await watch.stop();
    }
  });

  it('lists first, silently, when it does not announce what exists', async () => {
    const events: CloudEvent<unknown>[] = [];
    const watch = watchOf(false, events);
    watch.start();
    try {
      await watch.established;
      await client.create(configMap('later') as never);
      await eventually('the new ConfigMap announced', async () => names(events, '.add').includes('later'));
      expect(names(events, '.add')).toEqual(['later']);
      expect(verbs()).toEqual({ list: 1, watch: 1, create: 1 });
    } finally {
      await watch.stop();
    }
  });
});
