import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleStatus } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { sampleComponent, sampleGroup } from '../../tools/module/sample.ts';
import { converged } from './replay.ts';
import { writeRequestsDuring, writeSnapshot } from './snapshot.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  kymaGone,
  eventually,
  getKyma,
  justAfterTheMinute,
  kymaInState,
  manifestsOf,
  resyncTicks,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
const module = (k: { status?: { modules?: ModuleStatus[] } } | undefined, name: string) =>
  k?.status?.modules?.find((m) => m.name === name);

beforeAll(async () => {
  world = await startWorld();
  const publish = (name: string, version: string, extra: object = {}) =>
    publishSampleModule(world.registry, world.kcp, { name, version, namespace: KCP_NAMESPACE, ...extra });
  await publish('sample', '1.0.0', { extraConfigMap: 'sample-legacy' });
  await publish('sample', '2.0.0');
  await publish('other', '1.0.0');
  await publish('broken', '1.0.0', { unschedulable: true });
  await publish('betamod', '1.0.0', { beta: true });
  await publish('legacy', '1.0.0');
  // Upstream's legacy lookup: no ModuleReleaseMeta, the template itself names its channel and its OCM component.
  await world.kcp.mergePatch(
    { apiVersion: API_VERSION, kind: 'ModuleTemplate', namespace: KCP_NAMESPACE, name: 'legacy-1.0.0' },
    { spec: { channel: 'regular', descriptor: { component: { name: sampleComponent('legacy') } } } },
  );
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'sample', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
    { channel: 'stable', version: '1.0.0' },
  ]);
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'other', [{ channel: 'regular', version: '1.0.0' }]);
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'broken', [{ channel: 'regular', version: '1.0.0' }]);
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'betamod', [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  // Every Kyma this file made, also one a failed test left: the runtimes' Kymas outlive this file (world.ts).
  await stopWorld(world);
});

const [RUNTIME_1, RUNTIME_2] = [0, 1];
/** One Kyma per runtime at a time: the runtime's Kyma kyma-system/default belongs to exactly one KCP Kyma. */
async function removeKyma(name: string): Promise<void> {
  await deleteKyma(world, name);
  await kymaGone(world, name);
}
const deployment = (runtime: number, name: string) =>
  world.runtimes[runtime]?.get<{ kind?: string; status?: { availableReplicas?: number } }>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'kyma-system',
    name,
  });
const configMap = (runtime: number, name: string) =>
  world.runtimes[runtime]?.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name });

describe('install path through the local runner (resolve-template → render-manifest → apply-remote → aggregate-status)', () => {
  it('installs a Kyma with two modules on its runtime and reports Ready', async () => {
    await connectRuntime(world, 'kyma-a', RUNTIME_1);
    await applyKyma(world, 'kyma-a', { channel: 'regular', modules: [{ name: 'sample' }, { name: 'other' }] });
    const kyma = await kymaInState(world, 'kyma-a', 'Ready', (k) => k.status?.modules?.length === 2);
    expect(kyma.status?.activeChannel).toBe('regular');
    expect(module(kyma, 'sample')).toMatchObject({
      state: 'Ready',
      version: '1.0.0',
      channel: 'regular',
      template: { metadata: { name: 'sample-1.0.0' } },
    });
    expect(module(kyma, 'other')).toMatchObject({ state: 'Ready', version: '1.0.0' });
    expect((await deployment(RUNTIME_1, 'sample-manager'))?.status?.availableReplicas).toBe(1);
    expect((await deployment(RUNTIME_1, 'other-manager'))?.status?.availableReplicas).toBe(1);
    const cr = module(kyma, 'sample')?.resource;
    expect(cr?.kind).toBe('Sample');
    expect(
      await world.runtimes[RUNTIME_1]?.get({
        apiVersion: `${sampleGroup('sample')}/v1alpha1`,
        kind: 'Sample',
        namespace: 'kyma-system',
        name: cr?.metadata.name ?? '',
      }),
    ).toBeDefined();
    const manifests = await manifestsOf(world, 'kyma-a');
    expect(manifests.map((m) => m.status?.state)).toEqual(['Ready', 'Ready']);
    expect(manifests[0]?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Kyma',
      name: 'kyma-a',
      controller: true,
    });
  });

  it('reports Error on the module and the Kyma when the manager cannot become ready', async () => {
    await connectRuntime(world, 'kyma-b', RUNTIME_2);
    await applyKyma(world, 'kyma-b', { channel: 'regular', modules: [{ name: 'broken' }] });
    const kyma = await kymaInState(world, 'kyma-b', 'Error');
    expect(module(kyma, 'broken')).toMatchObject({
      state: 'Error',
      message: expect.stringContaining('ProgressDeadlineExceeded'),
    });
    await removeKyma('kyma-b');
  });

  it('honours a per-module channel override', async () => {
    await connectRuntime(world, 'kyma-c', RUNTIME_2);
    await applyKyma(world, 'kyma-c', { channel: 'regular', modules: [{ name: 'sample', channel: 'fast' }] });
    const kyma = await kymaInState(world, 'kyma-c', 'Ready');
    expect(module(kyma, 'sample')).toMatchObject({ channel: 'fast', version: '2.0.0', state: 'Ready' });
    await removeKyma('kyma-c');
  });

  it('upgrades on an MRM version bump and prunes what the new version dropped', async () => {
    expect(await configMap(RUNTIME_1, 'sample-legacy')).toBeDefined();
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'sample', [
      { channel: 'regular', version: '2.0.0' },
      { channel: 'fast', version: '2.0.0' },
      { channel: 'stable', version: '1.0.0' },
    ]);
    const kyma = await kymaInState(world, 'kyma-a', 'Ready', (k) => module(k, 'sample')?.version === '2.0.0');
    expect(module(kyma, 'sample')?.template?.metadata.name).toBe('sample-2.0.0');
    const manifest = (await manifestsOf(world, 'kyma-a')).find((m) => m.spec?.version === '2.0.0');
    expect(manifest?.status?.state).toBe('Ready');
    await eventually(
      'ConfigMap sample-legacy pruned',
      async () => (await configMap(RUNTIME_1, 'sample-legacy')) === undefined,
    );
    expect((await configMap(RUNTIME_1, 'sample-config')) as { data?: { version?: string } }).toMatchObject({
      data: { version: '2.0.0' },
    });
    expect((await deployment(RUNTIME_1, 'sample-manager')) as { spec?: unknown }).toMatchObject({
      spec: { template: { spec: { containers: [{ image: expect.stringContaining(':2.0.0') }] } } },
    });
  });

  it('keeps the installed version and warns when a channel switch would downgrade', async () => {
    await applyKyma(world, 'kyma-a', {
      channel: 'regular',
      modules: [{ name: 'sample', channel: 'stable' }, { name: 'other' }],
    });
    const kyma = await kymaInState(world, 'kyma-a', 'Warning');
    expect(module(kyma, 'sample')).toMatchObject({
      state: 'Warning',
      version: '2.0.0',
      message:
        'ignore channel skew (from regular to stable), as a higher version (2.0.0) of the module was previously installed',
    });
    expect(
      (await manifestsOf(world, 'kyma-a')).find(
        (m) => m.metadata.labels?.['operator.kyma-project.io/module-name'] === 'sample',
      )?.spec?.version,
    ).toBe('2.0.0');
    await applyKyma(world, 'kyma-a', { channel: 'regular', modules: [{ name: 'sample' }, { name: 'other' }] });
    await kymaInState(world, 'kyma-a', 'Ready');
  });

  it('reports a clear error for a module with neither ModuleReleaseMeta nor template', async () => {
    await connectRuntime(world, 'kyma-d', RUNTIME_2);
    await applyKyma(world, 'kyma-d', { channel: 'regular', modules: [{ name: 'ghost' }] });
    const kyma = await kymaInState(world, 'kyma-d', 'Error');
    expect(module(kyma, 'ghost')).toMatchObject({
      state: 'Error',
      message: 'no ModuleReleaseMeta found for module ghost and no ModuleTemplate for channel regular',
    });
    expect(await manifestsOf(world, 'kyma-d')).toEqual([]);
    await removeKyma('kyma-d');
  });

  it("finds a module without ModuleReleaseMeta by its template's channel (legacy lookup), and refuses the channel none", async () => {
    await connectRuntime(world, 'kyma-l', RUNTIME_2);
    await applyKyma(world, 'kyma-l', { channel: 'regular', modules: [{ name: 'legacy' }] });
    const kyma = await kymaInState(world, 'kyma-l', 'Ready', (k) => module(k, 'legacy')?.state === 'Ready');
    expect(module(kyma, 'legacy')).toMatchObject({
      channel: 'regular',
      version: '1.0.0',
      template: { metadata: { name: 'legacy-1.0.0' } },
    });
    expect((await deployment(RUNTIME_2, 'legacy-manager'))?.status?.availableReplicas).toBe(1);
    await applyKyma(world, 'kyma-l', {
      channel: 'regular',
      modules: [{ name: 'legacy' }, { name: 'other', channel: 'none' }],
    });
    const none = await kymaInState(world, 'kyma-l', 'Error', (k) => module(k, 'other')?.state === 'Error');
    expect(module(none, 'other')?.message).toBe('Channel none is not allowed');
    expect(
      (await manifestsOf(world, 'kyma-l')).map((m) => m.metadata.labels?.['operator.kyma-project.io/module-name']),
    ).toEqual(['legacy']);
    await removeKyma('kyma-l');
  });

  it('does not install a beta module on a Kyma without the beta label, installs it once the label is gone, refuses it again when internal', async () => {
    await connectRuntime(world, 'kyma-e', RUNTIME_2);
    await applyKyma(world, 'kyma-e', { channel: 'regular', modules: [{ name: 'betamod' }] });
    const kyma = await kymaInState(world, 'kyma-e', 'Error');
    expect(module(kyma, 'betamod')).toMatchObject({ state: 'Error', message: expect.stringContaining('is beta') });
    expect(await manifestsOf(world, 'kyma-e')).toEqual([]);
    expect(await deployment(RUNTIME_2, 'betamod-manager')).toBeUndefined();
    const template = {
      apiVersion: API_VERSION,
      kind: 'ModuleTemplate',
      namespace: KCP_NAMESPACE,
      name: 'betamod-1.0.0',
    };
    await world.kcp.mergePatch(template, { metadata: { labels: { 'operator.kyma-project.io/beta': null } } });
    await kymaInState(world, 'kyma-e', 'Ready', (k) => module(k, 'betamod')?.state === 'Ready');
    await world.kcp.mergePatch(template, { metadata: { labels: { 'operator.kyma-project.io/internal': 'true' } } });
    const internal = await kymaInState(world, 'kyma-e', 'Error');
    expect(module(internal, 'betamod')).toMatchObject({
      state: 'Error',
      message: expect.stringContaining('is internal'),
    });
    await eventually('refused module uninstalled', async () => (await manifestsOf(world, 'kyma-e')).length === 0);
    await removeKyma('kyma-e');
  });

  it('uninstalls a removed module (no user CRs) in two waves and drops its Manifest and status entry', async () => {
    // A finalizer holds the module's ConfigMap (first wave): its Deployment and CRD (second wave) stay until it is gone.
    const held = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: 'other-config' };
    const runtime = world.runtimes[RUNTIME_1];
    if (!runtime) throw new Error('no runtime');
    await runtime.mergePatch(held, { metadata: { finalizers: ['test.kyma-project.io/hold'] } });
    await applyKyma(world, 'kyma-a', { channel: 'regular', modules: [{ name: 'sample' }] });
    const waiting = await eventually('the first wave waits for the held ConfigMap', async () => {
      const other = (await manifestsOf(world, 'kyma-a')).find((m) => m.metadata.name.includes('other'));
      return other?.status?.lastOperation?.operation.startsWith(
        'removing module resources: 1 still present (ConfigMap other-config)',
      )
        ? other
        : undefined;
    });
    expect(waiting.status?.state).toBe('Deleting');
    expect(await deployment(RUNTIME_1, 'other-manager')).toBeDefined();
    await runtime.mergePatch(held, { metadata: { finalizers: null } });
    await eventually('Manifest of module other gone', async () => (await manifestsOf(world, 'kyma-a')).length === 1);
    const kyma = await kymaInState(world, 'kyma-a', 'Ready', (k) => k.status?.modules?.length === 1);
    expect(module(kyma, 'other')).toBeUndefined();
    expect(await deployment(RUNTIME_1, 'other-manager')).toBeUndefined();
    expect(
      await world.runtimes[RUNTIME_1]?.get({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: `others.${sampleGroup('other')}`,
      }),
    ).toBeUndefined();
    expect((await getKyma(world, 'kyma-a'))?.status?.modules?.map((m) => m.name)).toEqual(['sample']);
  });

  it('changes nothing when every event of the finished run is delivered again (zero writes)', async () => {
    const before = await converged(world);
    const events = [...world.events];
    expect(events.length).toBeGreaterThan(20);
    await justAfterTheMinute(); // no resync tick (and its drift checks) while the replay runs
    const ticks = resyncTicks(world);
    const writes = await writeRequestsDuring(async () => {
      for (const event of events) await world.runner.broker.publish(event);
      await world.runner.broker.idle();
    });
    expect(resyncTicks(world)).toBe(ticks);
    expect(writes).toEqual([]);
    expect(await writeSnapshot(world.kcp, world.runtimes)).toEqual(before);
  });
});
