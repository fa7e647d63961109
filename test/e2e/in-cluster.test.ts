// Single-cluster mode (ADR 21): a Kyma labelled in-cluster installs its modules into the KCP itself — install,
// upgrade with pruning, module removal, Kyma deletion, status — and a Manifest of its own labelled in-cluster;
// a control plane that does not allow it says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { setReleaseChannels } from '../../tools/module/publish.ts';
import { crRef, deploymentOf, publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';

const IN_CLUSTER = { [LABEL.inCluster]: 'true' };
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name });
const crd = (name: string) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name });
const manifestRef = (name: string) => ({ apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name });

describe('a control plane without LIFECYCLE_IN_CLUSTER', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    await publishModule(world, 'solo', ['1.0.0']);
  });
  afterAll(async () => {
    if (world) await deleteLeftoverKymas(world);
    await world?.runner.stop();
  });

  it('refuses an in-cluster Kyma with an Error naming the setting, installs nothing, and lets it be deleted', async () => {
    await applyKyma(world, 'ic-off', { channel: 'regular', modules: [{ name: 'solo' }] }, IN_CLUSTER);
    const kyma = await kymaInState(world, 'ic-off', 'Error', (k) =>
      Boolean(k.status?.lastOperation?.operation.includes('LIFECYCLE_IN_CLUSTER=true')),
    );
    // Not evaluated, as upstream's pass that stops early leaves it (ADR 40), and saying why.
    expect(kyma.status?.conditions?.find((c) => c.type === 'CRDsSync')).toMatchObject({
      status: 'Unknown',
      message: expect.stringContaining('LIFECYCLE_IN_CLUSTER=true'),
    });
    const [manifest] = await eventually('the Manifest in Error', async () => {
      const all = await manifestsOf(world, 'ic-off');
      return all[0]?.status?.state === 'Error' ? all : undefined;
    });
    expect(manifest?.metadata.labels?.[LABEL.inCluster]).toBe('true');
    expect(manifest?.status?.lastOperation?.operation).toContain('in-cluster installs are disabled');
    expect(await deploymentOf(world.kcp, 'solo')).toBeUndefined();
    await deleteKyma(world, 'ic-off');
    await kymaGone(world, 'ic-off');
  });
});

describe('single-cluster mode (LIFECYCLE_IN_CLUSTER=true)', () => {
  let world: World;
  let rendered: Manifest | undefined;
  beforeAll(async () => {
    world = await startWorld({ LIFECYCLE_IN_CLUSTER: 'true' });
    await publishModule(world, 'solo', ['1.0.0'], { extraConfigMap: 'solo-old' });
    await publishModule(world, 'solo', ['2.0.0']);
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'solo', [
      { channel: 'regular', version: '1.0.0' },
      { channel: 'fast', version: '2.0.0' },
    ]);
  });
  afterAll(async () => {
    if (world) await deleteLeftoverKymas(world);
    await world?.kcp.delete(manifestRef('ic-own')).catch(() => undefined);
    await world?.runner.stop();
  });

  it('installs into the KCP without a kubeconfig Secret, upgrades with pruning, removes the module, deletes the Kyma', async () => {
    const { kcp } = world;
    expect(
      await kcp.list('v1', 'Secret', { namespace: KCP_NAMESPACE, labelSelector: `${LABEL.kymaName}=ic-on` }),
    ).toMatchObject({ items: [] });
    await applyKyma(world, 'ic-on', { channel: 'regular', modules: [{ name: 'solo' }] }, IN_CLUSTER);
    const ready = await kymaInState(world, 'ic-on', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(ready.status?.modules?.[0]?.version).toBe('1.0.0');
    expect(ready.status?.conditions?.find((c) => c.type === 'CRDsSync')?.message).toContain('in-cluster');
    [rendered] = await manifestsOf(world, 'ic-on');
    expect(rendered?.metadata.labels?.[LABEL.inCluster]).toBe('true');
    // The module really rolled out in the KCP: its Deployment is available there, with the extra ConfigMap of 1.0.0.
    const deployment = (await deploymentOf(kcp, 'solo')) as { status?: { availableReplicas?: number } } | undefined;
    expect(deployment?.status?.availableReplicas).toBe(1);
    expect(await kcp.get(configMap('solo-old'))).toBeDefined();
    expect(await kcp.get(crRef('solo', rendered?.metadata.name ?? '', 'kyma-system'))).toBeDefined();
    // No runtime side: no runtime Kyma in kyma-system, no catalog copies.
    expect(
      await kcp.get({ apiVersion: API_VERSION, kind: 'Kyma', namespace: 'kyma-system', name: 'default' }),
    ).toBeUndefined();
    expect((await kcp.list(API_VERSION, 'ModuleTemplate', { namespace: 'kyma-system' })).items).toEqual([]);

    await applyKyma(world, 'ic-on', { channel: 'fast', modules: [{ name: 'solo' }] }, IN_CLUSTER);
    await kymaInState(
      world,
      'ic-on',
      'Ready',
      (k) => k.status?.modules?.[0]?.version === '2.0.0' && k.status.modules[0].state === 'Ready',
    );
    await eventually(
      'the ConfigMap only 1.0.0 had is pruned from the KCP',
      async () => (await kcp.get(configMap('solo-old'))) === undefined,
    );
    expect(
      (await kcp.get<{ metadata: { name: string }; data?: Record<string, string> }>(configMap('solo-config')))?.data
        ?.version,
    ).toBe('2.0.0');

    await applyKyma(world, 'ic-on', { channel: 'fast', modules: [] }, IN_CLUSTER);
    await eventually(
      'the module removed from the KCP',
      async () => (await deploymentOf(kcp, 'solo')) === undefined && (await manifestsOf(world, 'ic-on')).length === 0,
    );
    await kymaInState(world, 'ic-on', 'Ready', (k) => (k.status?.modules ?? []).length === 0);

    await applyKyma(world, 'ic-on', { channel: 'regular', modules: [{ name: 'solo' }] }, IN_CLUSTER);
    await kymaInState(world, 'ic-on', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'ic-on');
    await kymaGone(world, 'ic-on');
    expect(await deploymentOf(kcp, 'solo')).toBeUndefined();
    // Deleting an in-cluster Kyma never removes what the control plane itself runs on.
    for (const name of ['kymas', 'moduletemplates', 'modulereleasemetas', 'manifests']) {
      const kept = await kcp.get<{ metadata: { name: string; deletionTimestamp?: string } }>(
        crd(`${name}.operator.kyma-project.io`),
      );
      expect(kept?.metadata.deletionTimestamp, name).toBeUndefined();
    }
    expect(
      (await kcp.list(API_VERSION, 'ModuleTemplate', { namespace: KCP_NAMESPACE })).items.length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('installs and uninstalls a Manifest of its own (labelled in-cluster, no Kyma; spec.remote false says nothing, ADR 40)', async () => {
    const { kcp } = world;
    if (!rendered?.spec) throw new Error('the first test records a rendered Manifest spec');
    const spec = { install: rendered.spec.install, version: rendered.spec.version, remote: false, resource: null };
    await kcp.create({
      apiVersion: API_VERSION,
      kind: 'Manifest',
      metadata: { name: 'ic-own', namespace: KCP_NAMESPACE, labels: { [LABEL.inCluster]: 'true' } },
      spec,
    } as never);
    const ready = await eventually('the Manifest of its own Ready', async () => {
      const m = await kcp.get<Manifest>(manifestRef('ic-own'));
      return m?.status?.state === 'Ready' ? m : undefined;
    });
    expect(ready.status?.synced?.map((r) => r.kind).sort()).toEqual([
      'ConfigMap',
      'ConfigMap',
      'CustomResourceDefinition',
      'Deployment',
      'ServiceAccount',
    ]);
    expect(await deploymentOf(kcp, 'solo')).toBeDefined();
    await kcp.delete(manifestRef('ic-own'));
    await eventually(
      'the Manifest and its module gone',
      async () =>
        (await kcp.get(manifestRef('ic-own'))) === undefined && (await deploymentOf(kcp, 'solo')) === undefined,
    );
    expect(await getKyma(world, 'ic-on')).toBeUndefined();
  });
});
