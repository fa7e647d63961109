// An upgrade that drops a CRD a user's custom resources still use (issue 34 item 1). Module `zulu` 1.0.0 ships CRD
// widgets.zulu.example.com, 2.0.0 no longer does. Before, moving the channel pruned the CRD at once and the API server
// deleted the user's Widget with it; module and Kyma went Ready without a word. Now the CRD is kept while a Widget
// uses it — Manifest and Kyma Warning naming the CRD and the Widget, the rest of the upgrade done — and pruned as soon
// as the Widget is gone. A Kyma whose module allows it (spec.modules[].allowCrdPrune) loses the Widget with the CRD,
// and an Event records that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { deploymentOf } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';

const MODULE = 'zulu';
const CRD_NAME = 'widgets.zulu.example.com';
const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: CRD_NAME };
const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: CRD_NAME },
  spec: {
    group: 'zulu.example.com',
    scope: 'Namespaced',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};
const widget = (name: string) => ({
  apiVersion: 'zulu.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'kyma-system' },
  spec: { size: 1 },
});
let world: World;
let runtime: KubeClient;

beforeAll(async () => {
  world = await startWorld();
  await publishSampleModule(world.registry, world.kcp, {
    name: MODULE,
    version: '1.0.0',
    namespace: KCP_NAMESPACE,
    extraObjects: [WIDGET_CRD],
  });
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '2.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
  const client = world.runtimes[1];
  if (!client) throw new Error('no runtime');
  runtime = client;
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  await runtime?.delete(CRD).catch(() => undefined);
  if (runtime) await removeModuleLeftovers(runtime, MODULE);
  await world?.runner.stop();
});

const onVersion = (version: string) => (k: Kyma) => k.status?.modules?.[0]?.version === version;

describe('an upgrade that drops a CRD custom resources still use', () => {
  it("keeps the CRD and the user's Widget, Warning naming both, upgrades the rest, and prunes the CRD once the Widget is gone", async () => {
    await connectRuntime(world, 'crd-keep', 1);
    await applyKyma(world, 'crd-keep', { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, 'crd-keep', 'Ready', onVersion('1.0.0'));
    await runtime.create(widget('mine'));
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '2.0.0' }]);
    const warned = await kymaInState(world, 'crd-keep', 'Warning', onVersion('2.0.0'));
    const message = `CRD ${CRD_NAME} is no longer shipped but not pruned: 1 custom resource still uses it (Widget kyma-system/mine)`;
    expect(warned.status?.modules?.[0]?.message).toContain(message);
    const [manifest] = await manifestsOf(world, 'crd-keep');
    expect(manifest?.status?.state).toBe('Warning');
    expect(manifest?.status?.synced?.map((r) => r.name)).toContain(CRD_NAME);
    expect(
      await runtime.get({ ...widget('mine'), name: 'mine', namespace: 'kyma-system' }),
      'the Widget is kept',
    ).toBeDefined();
    expect(
      (await deploymentOf(runtime, MODULE))?.spec?.template?.spec?.containers?.[0]?.image,
      'the rest of the upgrade done',
    ).toMatch(/:2\.0\.0$/);

    await runtime.delete({ apiVersion: 'zulu.example.com/v1', kind: 'Widget', namespace: 'kyma-system', name: 'mine' });
    await world.runner.resync();
    await kymaInState(world, 'crd-keep', 'Ready', onVersion('2.0.0'));
    await eventually('the CRD pruned', async () => (await runtime.get(CRD)) === undefined);
    expect((await manifestsOf(world, 'crd-keep'))[0]?.status?.synced?.map((r) => r.name)).not.toContain(CRD_NAME);
  }, 240_000);

  it("prunes it with the Widget where the Kyma's module allows it, recording an Event", async () => {
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [
      { channel: 'regular', version: '1.0.0' },
      { channel: 'fast', version: '2.0.0' },
    ]);
    await connectRuntime(world, 'crd-allow', 0);
    const zero = world.runtimes[0];
    if (!zero) throw new Error('no runtime');
    await applyKyma(world, 'crd-allow', { channel: 'regular', modules: [{ name: MODULE, allowCrdPrune: [CRD_NAME] }] });
    await kymaInState(world, 'crd-allow', 'Ready', onVersion('1.0.0'));
    await zero.create(widget('theirs'));
    await applyKyma(world, 'crd-allow', { channel: 'fast', modules: [{ name: MODULE, allowCrdPrune: [CRD_NAME] }] });
    await kymaInState(world, 'crd-allow', 'Ready', onVersion('2.0.0'));
    await eventually('the CRD pruned, the Widget with it', async () => (await zero.get(CRD)) === undefined);
    const [manifest] = (await manifestsOf(world, 'crd-allow')) as Manifest[];
    const events = (
      await world.kcp.list<{ metadata: { name: string }; reason?: string; message?: string }>('v1', 'Event', {
        namespace: KCP_NAMESPACE,
        fieldSelector: `involvedObject.name=${manifest?.metadata.name ?? ''}`,
      })
    ).items;
    expect(events.find((e) => e.reason === 'CrdPrunedWithCustomResources')?.message).toBe(
      `CRD ${CRD_NAME} pruned with 1 custom resources, as spec.modules[].allowCrdPrune allows: Widget kyma-system/theirs`,
    );
  }, 240_000);
});
