// The manifest library (issue 10, ADR 23) as another operator uses it: imported by package name, against a real
// runtime API server (with workloads), with a custom readiness check and an extra custom resource; consistency check
// finds drift, install repairs it, an upgrade prunes, uninstall removes everything. No lifecycle functions run here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { stringify } from 'yaml';
import {
  checkModule,
  connectCluster,
  installModule,
  uninstallModule,
  type ModuleState,
  type RenderedModule,
  type RuntimeObject,
  type TargetCluster,
} from 'kyma-lifecycle-functions/library';
import { eventually } from './world.ts';

const GROUP = 'library.example.com';
const NS = 'gadget-system';
let cluster: TargetCluster;

function gadgetModule(opts: { withConfig: boolean }): string {
  const labels = { app: 'gadget-operator' };
  return [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `gadgets.${GROUP}` },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { kind: 'Gadget', plural: 'gadgets', singular: 'gadget', listKind: 'GadgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gadget-operator', namespace: NS } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gadget-operator', namespace: NS, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: 'gadget-operator',
            containers: [{ name: 'operator', image: 'example.com/gadget:1' }],
          },
        },
      },
    },
    ...(opts.withConfig
      ? [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'gadget-config', namespace: NS },
            data: { mode: 'fast' },
          },
        ]
      : []),
  ]
    .map((d) => stringify(d))
    .join('---\n');
}

const gadget: RuntimeObject = {
  apiVersion: `${GROUP}/v1`,
  kind: 'Gadget',
  metadata: { name: 'default', namespace: NS },
  spec: { size: 2 },
};
const gadgetRef = { apiVersion: `${GROUP}/v1`, kind: 'Gadget', namespace: NS, name: 'default' };
const configRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name: 'gadget-config' };

/** Custom readiness: the operator rolled out AND it reported its Gadget ready (status.phase). */
const gadgetReady: RenderedModule['readiness'] = (applied) => {
  const deployment = applied.find((o) => o.kind === 'Deployment') as
    { status?: { availableReplicas?: number } } | undefined;
  if (!deployment?.status?.availableReplicas)
    return { state: 'Processing', reason: 'gadget-operator is not available yet' };
  const cr = applied.find((o) => o.kind === 'Gadget') as { status?: { phase?: string } } | undefined;
  return cr?.status?.phase === 'Ready'
    ? { state: 'Ready', reason: 'gadget default is Ready' }
    : { state: 'Processing', reason: `gadget default is ${cr?.status?.phase ?? 'not reported'}` };
};
const module = (withConfig: boolean): RenderedModule => ({
  name: 'gadget',
  namespace: 'ops',
  manifest: gadgetModule({ withConfig }),
  customResources: [gadget],
  readiness: gadgetReady,
  fieldManager: 'gadget-installer',
});

/** Calls installModule until `until` holds (as an operator's reconcile loop would). */
async function reconcile(
  m: RenderedModule,
  previous: ModuleState['synced'],
  until: (s: ModuleState) => boolean,
): Promise<ModuleState> {
  let last: ModuleState | undefined;
  return eventually(
    () => `module state (last: ${JSON.stringify(last && { state: last.state, reason: last.reason })})`,
    async () => {
      last = await installModule(cluster, m, last?.synced ?? previous);
      return until(last) ? last : undefined;
    },
    90_000,
  );
}

beforeAll(async () => {
  cluster = await connectCluster(inject('controlPlane').runtimes[1] ?? '');
});

afterAll(async () => {
  await cluster?.client
    .delete({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: `gadgets.${GROUP}` })
    .catch(() => undefined);
  await cluster?.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NS }).catch(() => undefined);
});

describe('the manifest library, imported by another operator', () => {
  it('installs with a custom readiness check and a custom resource, finds and repairs drift, prunes on upgrade, uninstalls', async () => {
    const waiting = await reconcile(
      module(true),
      [],
      (s) => s.state === 'Processing' && s.reason === 'gadget default is not reported',
    );
    expect(waiting.synced.map((r) => r.kind).sort()).toEqual([
      'ConfigMap',
      'CustomResourceDefinition',
      'Deployment',
      'Gadget',
      'Namespace',
      'ServiceAccount',
    ]);
    const live = await cluster.client.get<RuntimeObject>(gadgetRef);
    expect(live?.metadata.labels?.['app.kubernetes.io/component']).toBe('gadget');
    expect(live?.metadata.annotations?.['deprecated-operator.kyma-project.io/owned-by']).toBe('ops/gadget');

    await cluster.client.mergePatch(gadgetRef, { status: { phase: 'Ready' } }, 'status');
    const ready = await reconcile(module(true), waiting.synced, (s) => s.state === 'Ready');
    expect(ready.reason).toBe('gadget default is Ready');
    expect(await checkModule(cluster, module(true))).toMatchObject({ consistent: true, drifted: [], state: 'Ready' });

    await cluster.client.mergePatch(configRef, { data: { mode: 'slow' } });
    const drift = await checkModule(cluster, module(true));
    expect(drift).toMatchObject({ consistent: false, state: 'Processing' });
    expect(drift.drifted.map((r) => `${r.kind}/${r.name}`)).toEqual(['ConfigMap/gadget-config']);
    await reconcile(module(true), ready.synced, (s) => s.state === 'Ready');
    expect((await cluster.client.get<RuntimeObject & { data?: Record<string, string> }>(configRef))?.data).toEqual({
      mode: 'fast',
    });

    const upgraded = await reconcile(module(false), ready.synced, (s) => s.state === 'Ready');
    expect(await cluster.client.get(configRef)).toBeUndefined();
    expect(upgraded.synced.some((r) => r.kind === 'ConfigMap')).toBe(false);

    await eventually(
      'the module uninstalled',
      async () => (await uninstallModule(cluster, upgraded.synced)).done,
      90_000,
    );
    expect(
      await cluster.client.get({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: `gadgets.${GROUP}`,
      }),
    ).toBeUndefined();
  });

  it('reports a module it cannot render as Error and never quotes a kubeconfig it cannot use', async () => {
    expect(await installModule(cluster, { name: 'broken', manifest: 'kind: [' })).toMatchObject({
      state: 'Error',
      reason: expect.stringContaining('rendering the module failed'),
    });
    const error = await connectCluster('token: s3cret\n  bad: [').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe('the kubeconfig is not usable (not a kubeconfig YAML)');
  });
});
