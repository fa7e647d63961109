// Several Kymas on one runtime API server (the isolation option, docs/adr/0013): each kubeconfig Secret names a
// runtime namespace; the Kymas' runtime Kymas, catalogs, module resources and default CRs stay apart, the shared
// cluster-scoped objects do not flap between them, and removing one Kyma leaves the other untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { RUNTIME_NAMESPACE_ANNOTATION } from '../../shared/core/runtime-scope.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { eventAbout, RESYNC_DUE } from '../../shared/host/events.ts';
import { publishModule } from './removal-helpers.ts';
import { throwawayRuntime } from './throwaway.ts';
import {
  applyKyma,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  startWorld,
  type World,
} from './world.ts';

let world: World;
let cluster: Cluster;
let runtime: KubeClient;
const TENANTS = { 'sh-a': 'tenant-a', 'sh-b': 'tenant-b' } as const;

interface Listed {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
}

beforeAll(async () => {
  world = await startWorld();
  cluster = await throwawayRuntime('shared-runtime');
  runtime = await KubeClient.from(cluster.kubeConfig());
  await publishModule(world, 'sierra', ['1.0.0']);
  await publishModule(world, 'tango', ['1.0.0']);
  for (const [kyma, namespace] of Object.entries(TENANTS)) {
    await world.kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: kyma,
          namespace: KCP_NAMESPACE,
          labels: { [LABEL.kymaName]: kyma },
          annotations: { [RUNTIME_NAMESPACE_ANNOTATION]: namespace },
        },
        data: { config: Buffer.from(cluster.kubeconfig).toString('base64') },
      },
      'e2e-user',
    );
    world.kymaRuntime.set(kyma, runtime);
  }
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  // The kubeconfig Secrets point at the throwaway runtime: left behind, later worlds would watch a stopped cluster.
  for (const kyma of Object.keys(TENANTS))
    await world?.kcp
      .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: kyma })
      .catch(() => undefined);
  await world?.runner.stop();
  await cluster?.stop();
});

const names = async (apiVersion: string, kind: string, namespace: string) =>
  (await runtime.list<Listed>(apiVersion, kind, { namespace })).items.map((i) => i.metadata.name).sort();

/** resourceVersions of everything the two Kymas own or share on the runtime. */
async function versions(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const kinds: [string, string][] = [
    ['apps/v1', 'Deployment'],
    ['v1', 'ConfigMap'],
    ['v1', 'ServiceAccount'],
    [API_VERSION, 'Kyma'],
    [API_VERSION, 'ModuleTemplate'],
    [API_VERSION, 'ModuleReleaseMeta'],
    ['sierra.modules.kyma-project.io/v1alpha1', 'Sierra'],
  ];
  for (const namespace of Object.values(TENANTS)) {
    for (const [apiVersion, kind] of kinds) {
      for (const i of (await runtime.list<Listed>(apiVersion, kind, { namespace })).items)
        out[`${kind} ${namespace}/${i.metadata.name}`] = i.metadata.resourceVersion ?? '';
    }
  }
  for (const i of (await runtime.list<Listed>('apiextensions.k8s.io/v1', 'CustomResourceDefinition')).items)
    out[`CRD ${i.metadata.name}`] = i.metadata.resourceVersion ?? '';
  return out;
}

describe('two Kymas on one runtime API server, each in its runtime namespace', () => {
  it('installs each apart: runtime Kyma, catalog, module resources and default CR in its namespace, nothing in kyma-system', async () => {
    for (const kyma of Object.keys(TENANTS))
      await applyKyma(world, kyma, { channel: 'regular', modules: [{ name: 'sierra' }] });
    for (const kyma of Object.keys(TENANTS))
      await kymaInState(world, kyma, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(await names(API_VERSION, 'ModuleTemplate', 'tenant-a')).toEqual(
      await names(API_VERSION, 'ModuleTemplate', 'tenant-b'),
    );
    for (const namespace of Object.values(TENANTS)) {
      // Created by the resolve-template round after aggregate-status synced the Kyma CRD, which may follow Ready.
      const kymas = async () => {
        const listed = await names(API_VERSION, 'Kyma', namespace);
        return listed.length > 0 && listed;
      };
      expect(await eventually(`runtime Kyma in ${namespace}`, kymas)).toEqual(['default']);
      expect(await names('apps/v1', 'Deployment', namespace)).toEqual(['sierra-manager']);
      expect(await names(API_VERSION, 'ModuleReleaseMeta', namespace)).toEqual(
        expect.arrayContaining(['sierra', 'tango']),
      );
      expect(await names('sierra.modules.kyma-project.io/v1alpha1', 'Sierra', namespace)).toHaveLength(1);
    }
    expect(await names(API_VERSION, 'Kyma', 'kyma-system')).toEqual([]);
    expect(await names('apps/v1', 'Deployment', 'kyma-system')).toEqual([]);
    type Mirrored = { kind?: string; status?: { modules?: { template?: { metadata?: { namespace?: string } } }[] } };
    const mirroredIn = async (namespace: string) =>
      (await runtime.get<Mirrored>({ apiVersion: API_VERSION, kind: 'Kyma', namespace, name: 'default' }))?.status
        ?.modules?.[0]?.template?.metadata?.namespace;
    for (const namespace of Object.values(TENANTS))
      expect(await eventually(`status mirrored to ${namespace}/default`, () => mirroredIn(namespace))).toBe(namespace);
  });

  it('leaves no object flapping between the two: every resourceVersion holds through two forced rounds of every step', async () => {
    await world.runner.broker.idle();
    const before = await versions();
    for (let i = 0; i < 2; i++) {
      // Every Manifest re-applied and every Kyma re-synced (catalog, CRDs, mirror), not only those that are due.
      for (const m of (await world.kcp.list<Listed>(API_VERSION, 'Manifest', { namespace: KCP_NAMESPACE })).items)
        await world.runner.broker.publish(
          eventAbout(
            RESYNC_DUE,
            'e2e',
            { kind: 'Manifest', apiVersion: API_VERSION, namespace: KCP_NAMESPACE, name: m.metadata.name },
            undefined,
          ),
        );
      for (const kyma of Object.keys(TENANTS))
        await world.runner.broker.publish(
          eventAbout(
            RESYNC_DUE,
            'e2e',
            { kind: 'Kyma', apiVersion: API_VERSION, namespace: KCP_NAMESPACE, name: kyma },
            undefined,
          ),
        );
      await world.runner.broker.idle();
    }
    const after = await versions();
    expect(Object.keys(before).length).toBeGreaterThan(20);
    expect(
      Object.entries(after)
        .filter(([k, v]) => before[k] !== v)
        .map(([k]) => k),
    ).toEqual([]);
  });

  it('takes a module added on one runtime Kyma to that Kyma only', async () => {
    await runtime.mergePatch(
      { apiVersion: API_VERSION, kind: 'Kyma', namespace: 'tenant-a', name: 'default' },
      { spec: { modules: [{ name: 'sierra' }, { name: 'tango' }] } },
    );
    await kymaInState(
      world,
      'sh-a',
      'Ready',
      (k) => k.status?.modules?.find((m) => m.name === 'tango')?.state === 'Ready',
    );
    expect(await names('apps/v1', 'Deployment', 'tenant-a')).toEqual(['sierra-manager', 'tango-manager']);
    expect(await names('apps/v1', 'Deployment', 'tenant-b')).toEqual(['sierra-manager']);
    expect((await getKyma(world, 'sh-b'))?.status?.modules?.map((m) => m.name)).toEqual(['sierra']);
  });

  it('deletes one Kyma without touching the other: its namespace is emptied, shared CRDs and the other Kyma stay', async () => {
    await deleteKyma(world, 'sh-a');
    await kymaGone(world, 'sh-a');
    expect(await names('apps/v1', 'Deployment', 'tenant-a')).toEqual([]);
    expect(await names(API_VERSION, 'Kyma', 'tenant-a')).toEqual([]);
    expect(await names(API_VERSION, 'ModuleTemplate', 'tenant-a')).toEqual([]);
    expect(await names('apps/v1', 'Deployment', 'tenant-b')).toEqual(['sierra-manager']);
    expect(await names(API_VERSION, 'Kyma', 'tenant-b')).toEqual(['default']);
    expect(await names(API_VERSION, 'ModuleReleaseMeta', 'tenant-b')).toEqual(
      expect.arrayContaining(['sierra', 'tango']),
    );
    expect(
      await runtime.get({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'sierras.sierra.modules.kyma-project.io',
      }),
    ).toBeDefined();
    await world.runner.resync();
    await kymaInState(world, 'sh-b', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'sh-b');
    await kymaGone(world, 'sh-b');
  });
});
