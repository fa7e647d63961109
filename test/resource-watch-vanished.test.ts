// A runtime watch (`announceExisting`, as the runtime watch component's) on the real runtime API server: an object it
// announced that went while no WATCH was open to say so is reported deleted once the watch is back (ADR 75). Here
// the network path to the server is down while the object's CRD is deleted (the CRD takes its objects with it): the
// server can tell no watch about the deletion, and the kind is no longer served when the watch comes back.
import type { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { createLogger } from '../shared/host/logger.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { ResourceWatch } from '../shared/kube/resource-watch.ts';
import { eventually } from './e2e/world.ts';
import { passThrough, type PassThrough } from './pass-through.ts';

type Config = { clusters: { cluster: { server: string } }[] };
const GROUP = 'vanish.watch-test.kyma-project.io';
const PLURAL = `probes${Date.now().toString(36)}`;
const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: `${PLURAL}.${GROUP}` };
const PROBE = { apiVersion: `${GROUP}/v1`, kind: 'Probe', namespace: 'default', name: 'default' };
const kindServed = async (client: KubeClient) =>
  client.list(PROBE.apiVersion, PROBE.kind, { namespace: 'default' }).then(
    () => true,
    () => false,
  );

let admin: KubeClient;
let proxy: PassThrough;
let viaProxy: KubeClient;

beforeAll(async () => {
  const kubeconfig = inject('controlPlane').runtimes[0] as string;
  const config = parse(kubeconfig) as Config;
  admin = await KubeClient.from(loadKubeConfig(kubeconfig));
  proxy = await passThrough(new URL(config.clusters[0]?.cluster.server ?? ''));
  for (const { cluster } of config.clusters) cluster.server = `https://127.0.0.1:${proxy.port}`;
  viaProxy = await KubeClient.from(loadKubeConfig(stringify(config)), { http2: true });
  await admin.create({
    apiVersion: CRD.apiVersion,
    kind: CRD.kind,
    metadata: { name: CRD.name },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: PLURAL, singular: `${PLURAL}x`, kind: PROBE.kind, listKind: 'ProbeList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  } as never);
  await eventually('the probe kind served', () => kindServed(admin), 30_000);
  await admin.create({ ...PROBE, metadata: { name: PROBE.name, namespace: PROBE.namespace } } as never);
});

afterAll(async () => {
  await admin?.delete(CRD).catch(() => undefined);
  proxy?.server.close();
});

describe('a watch that announces what exists', () => {
  it('reports an announced object deleted when its kind went away while the watch was down', async () => {
    const events: CloudEvent<unknown>[] = [];
    const watch = new ResourceWatch({
      client: viaProxy,
      source: 'runtime',
      log: createLogger('vanish-test', 'silent'),
      announceExisting: true,
      resource: { apiVersion: PROBE.apiVersion, kind: PROBE.kind, namespace: PROBE.namespace },
      sink: async (event) => void events.push(event),
    });
    watch.start();
    try {
      await eventually('the probe announced', async () => events.some((e) => e.type.endsWith('.add')), 30_000);
      const { uid } = (events[0]?.data as { metadata: { uid: string } }).metadata;

      proxy.refuse(true);
      proxy.cut();
      await admin.delete(CRD);
      await eventually('the probe kind gone', async () => !(await kindServed(admin)), 60_000);
      proxy.refuse(false);

      const deleted = await eventually(
        'a delete of the probe',
        async () => events.find((e) => e.type === 'dev.knative.apiserver.resource.delete'),
        60_000,
      );
      expect(deleted.data).toEqual({
        apiVersion: PROBE.apiVersion,
        kind: PROBE.kind,
        metadata: { name: PROBE.name, namespace: PROBE.namespace, uid, resourceVersion: expect.any(String) },
      });
      expect(events.filter((e) => e.type.endsWith('.delete'))).toHaveLength(1);
    } finally {
      await watch.stop();
    }
  });
});
