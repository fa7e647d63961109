import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleStatus } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import {
  crRef,
  deploymentOf,
  dropFinalizers,
  moduleCrOn,
  publishModule,
  userCr,
  installed,
  removeAndCleanUp,
} from './removal-helpers.ts';
import {
  applyKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
const entry = async (kyma: string, module: string): Promise<ModuleStatus | undefined> =>
  (await getKyma(world, kyma))?.status?.modules?.find((m) => m.name === module);
const onlyManifest = async (kyma: string): Promise<Manifest | undefined> => (await manifestsOf(world, kyma))[0];
const HOLD = 'test.kyma-project.io/hold';

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_PURGE_GRACE_SECONDS: '8' });
  await publishModule(world, 'alpha', ['1.0.0']);
  await publishModule(world, 'bravo', ['1.0.0'], { clusterScoped: true });
  await publishModule(world, 'charlie', ['1.0.0', '2.0.0']);
  await publishModule(world, 'delta', ['1.0.0']);
  await publishModule(world, 'echo', ['1.0.0']);
  await publishModule(world, 'kilo', ['1.0.0', '2.0.0']);
  await publishModule(world, 'lima', ['1.0.0']);
  await publishSampleModule(world.registry, world.kcp, {
    name: 'lima',
    version: '2.0.0',
    namespace: KCP_NAMESPACE,
    apiVersions: ['v1alpha1', 'v1alpha2'],
  });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'kilo', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
  ]);
});

afterEach(async () => {
  await deleteLeftoverKymas(world); // a failed test must not leave a second Kyma on a shared runtime
});

afterAll(async () => {
  await stopWorld(world);
});

describe('module removal blocked by user CRs, CreateAndDelete (same namespace, other namespace, default CR finalizer)', () => {
  it('keeps everything and names each blocking CR with its finalizers; then removes default CR, resources and Manifest in order', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-a', 0, 'alpha');
    const defaultCr = crRef('alpha', (await onlyManifest('rm-a'))?.metadata.name ?? '', 'kyma-system');
    expect(await runtime.get(defaultCr)).toBeDefined();
    await runtime.mergePatch(defaultCr, { metadata: { finalizers: [HOLD] } });
    await userCr(runtime, 'alpha', 'mine', 'kyma-system', ['test.kyma-project.io/keep']);
    await userCr(runtime, 'alpha', 'theirs', 'team-a');

    await applyKyma(world, 'rm-a', { channel: 'regular', modules: [] });
    const blocked = await eventually('module entry Deleting with the blocking CRs', async () => {
      const e = await entry('rm-a', 'alpha');
      return e?.state === 'Deleting' && e.message?.includes('team-a/theirs') ? e : undefined;
    });
    expect(blocked.message).toBe(
      'waiting for module crs deletion: Alpha kyma-system/mine [finalizers: test.kyma-project.io/keep], Alpha team-a/theirs',
    );
    expect((await getKyma(world, 'rm-a'))?.status?.state).toBe('Processing');
    expect((await onlyManifest('rm-a'))?.status?.state).toBe('Deleting');
    expect(await deploymentOf(runtime, 'alpha')).toBeDefined();
    expect(await runtime.get(defaultCr)).toBeDefined();

    await runtime.delete(crRef('alpha', 'theirs', 'team-a'));
    await eventually(
      'still blocked by the remaining CR only',
      async () =>
        (await entry('rm-a', 'alpha'))?.message ===
        'waiting for module crs deletion: Alpha kyma-system/mine [finalizers: test.kyma-project.io/keep]',
    );
    expect(await deploymentOf(runtime, 'alpha')).toBeDefined();

    await runtime.delete(crRef('alpha', 'mine', 'kyma-system'));
    await dropFinalizers(runtime, crRef('alpha', 'mine', 'kyma-system'));
    await eventually(
      'default CR being deleted, operator still there',
      async () =>
        (await entry('rm-a', 'alpha'))?.message?.includes('deleting the default CR') &&
        Boolean(await deploymentOf(runtime, 'alpha')),
    );
    await dropFinalizers(runtime, defaultCr);
    await eventually('Manifest gone', async () => (await manifestsOf(world, 'rm-a')).length === 0);
    expect(await deploymentOf(runtime, 'alpha')).toBeUndefined();
    expect(await moduleCrOn(runtime, defaultCr)).toBeUndefined();
    await kymaInState(world, 'rm-a', 'Ready', (k) => (k.status?.modules ?? []).length === 0);
    await removeAndCleanUp(world, 'rm-a');
  });
});

describe('module removal with policy Ignore and cluster-scoped CRs', () => {
  it('creates no default CR, and every CR of the kind blocks (also one named like the default) until the user deletes it', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-b', 1, 'bravo', { customResourcePolicy: 'Ignore' });
    await eventually(
      'no Bravo CRs (policy Ignore)',
      async () => (await runtime.list('bravo.modules.kyma-project.io/v1alpha1', 'Bravo')).items.length === 0,
    );
    const defaultName = (await onlyManifest('rm-b'))?.metadata.name ?? '';
    await userCr(runtime, 'bravo', defaultName, undefined);
    await userCr(runtime, 'bravo', 'cluster-wide', undefined);
    await applyKyma(world, 'rm-b', { channel: 'regular', modules: [] });
    const blocked = await eventually('blocked by both cluster-scoped CRs', async () => {
      const e = await entry('rm-b', 'bravo');
      return e?.state === 'Deleting' && e.message?.includes('cluster-wide') ? e : undefined;
    });
    expect(blocked.message).toContain(`Bravo ${defaultName}`);
    await runtime.delete(crRef('bravo', 'cluster-wide'));
    await eventually(
      'still blocked by the CR named like the default',
      async () => (await entry('rm-b', 'bravo'))?.message === `waiting for module crs deletion: Bravo ${defaultName}`,
    );
    expect(await deploymentOf(runtime, 'bravo')).toBeDefined();
    await runtime.delete(crRef('bravo', defaultName));
    await eventually('Manifest gone', async () => (await manifestsOf(world, 'rm-b')).length === 0);
    expect(await deploymentOf(runtime, 'bravo')).toBeUndefined();
    await kymaInState(world, 'rm-b', 'Ready');
    await removeAndCleanUp(world, 'rm-b');
  });
});

describe('ModuleReleaseMeta upgrade under a blocked deletion', () => {
  it('upgrades the operator while user CRs hold the removal, then removes everything', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-c', 0, 'charlie');
    await userCr(runtime, 'charlie', 'blocker', 'kyma-system');
    await applyKyma(world, 'rm-c', { channel: 'regular', modules: [] });
    await eventually('blocked', async () => (await entry('rm-c', 'charlie'))?.state === 'Deleting');
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'charlie', [{ channel: 'regular', version: '2.0.0' }]);
    await eventually('operator upgraded to 2.0.0 during deletion', async () =>
      (await deploymentOf(runtime, 'charlie'))?.spec?.template?.spec?.containers?.[0]?.image?.endsWith(':2.0.0'),
    );
    const manifest = await onlyManifest('rm-c');
    expect(manifest?.spec?.version).toBe('2.0.0');
    expect(manifest?.metadata.deletionTimestamp).toBeDefined();
    await runtime.delete(crRef('charlie', 'blocker', 'kyma-system'));
    await eventually('Manifest gone', async () => (await manifestsOf(world, 'rm-c')).length === 0);
    expect(await deploymentOf(runtime, 'charlie')).toBeUndefined();
    await kymaInState(world, 'rm-c', 'Ready');
    await removeAndCleanUp(world, 'rm-c');
  });
});

describe('module CR API upgrade under a blocked deletion', () => {
  it('upgrades to a version whose CR API moved to v1alpha2 while blocked, still sees the blocking CR, and completes once it is gone', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-l', 0, 'lima');
    await userCr(runtime, 'lima', 'old-api', 'kyma-system', ['test.kyma-project.io/held']);
    await applyKyma(world, 'rm-l', { channel: 'regular', modules: [] });
    await eventually('blocked', async () => (await entry('rm-l', 'lima'))?.message?.includes('kyma-system/old-api'));
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'lima', [{ channel: 'regular', version: '2.0.0' }]);
    await eventually(
      'operator 2.0.0 and default CR API v1alpha2 while deleting',
      async () =>
        (await deploymentOf(runtime, 'lima'))?.spec?.template?.spec?.containers?.[0]?.image?.endsWith(':2.0.0') &&
        ((await onlyManifest('rm-l'))?.spec?.resource as { apiVersion?: string } | undefined)?.apiVersion ===
          'lima.modules.kyma-project.io/v1alpha2',
    );
    expect((await entry('rm-l', 'lima'))?.message).toContain('Lima kyma-system/old-api');
    await runtime.delete(crRef('lima', 'old-api', 'kyma-system'));
    await dropFinalizers(runtime, crRef('lima', 'old-api', 'kyma-system'));
    await eventually('Manifest gone', async () => (await manifestsOf(world, 'rm-l')).length === 0);
    expect(await deploymentOf(runtime, 'lima')).toBeUndefined();
    await kymaInState(world, 'rm-l', 'Ready');
    await removeAndCleanUp(world, 'rm-l');
  });
});

describe('re-enabling a module whose removal is blocked', () => {
  it("rolls the new channel's version out to the deleting Manifest, and after the user CR goes a fresh Manifest takes over", async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-k', 1, 'kilo');
    await userCr(runtime, 'kilo', 'held', 'kyma-system', ['test.kyma-project.io/held']);
    await applyKyma(world, 'rm-k', { channel: 'regular', modules: [] });
    await eventually('blocked', async () => (await entry('rm-k', 'kilo'))?.state === 'Deleting');
    await applyKyma(world, 'rm-k', { channel: 'regular', modules: [{ name: 'kilo', channel: 'fast' }] });
    await eventually('new version deployed while the old Manifest is still deleting', async () =>
      (await deploymentOf(runtime, 'kilo'))?.spec?.template?.spec?.containers?.[0]?.image?.endsWith(':2.0.0'),
    );
    expect((await onlyManifest('rm-k'))?.metadata.deletionTimestamp).toBeDefined();
    await runtime.delete(crRef('kilo', 'held', 'kyma-system'));
    await dropFinalizers(runtime, crRef('kilo', 'held', 'kyma-system'));
    const kyma = await kymaInState(
      world,
      'rm-k',
      'Ready',
      (k) => k.status?.modules?.[0]?.version === '2.0.0' && k.status.modules[0].state === 'Ready',
    );
    expect(kyma.status?.modules?.[0]?.channel).toBe('fast');
    const fresh = await onlyManifest('rm-k');
    expect(fresh?.metadata.deletionTimestamp).toBeUndefined();
    expect((await deploymentOf(runtime, 'kilo'))?.spec?.template?.spec?.containers?.[0]?.image).toMatch(/:2\.0\.0$/);
    await removeAndCleanUp(world, 'rm-k');
  });
});
