// Restricted modules (LIFECYCLE_RESTRICTED_MODULES, a ModuleReleaseMeta's kymaSelector) and ModuleReleaseMeta changes
// on real clusters; the runtime side's CRD and catalog sync: runtime-side.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { setReleaseChannels } from '../../tools/module/publish.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  stopWorld,
  type World,
} from './world.ts';
import { remote, startRuntimeSideWorld } from './runtime-side-world.ts';

let world: World;

beforeAll(async () => {
  world = await startRuntimeSideWorld();
});

afterAll(async () => {
  await stopWorld(world);
});

describe('restricted modules and ModuleReleaseMeta changes', () => {
  const mrm = { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: 'deployer' };
  const kymaRef = { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: 'rt-c' };
  const account = (...values: string[]) => ({
    kymaSelector: { matchExpressions: [{ key: 'kyma-project.io/global-account-id', operator: 'In', values }] },
  });

  it('syncs and installs a restricted module only while its kymaSelector matches the Kyma (uninstalled when it stops matching); an MRM pointing at a missing version turns the module Error until fixed', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'rt-c', 0);
    await world.kcp.mergePatch(mrm, { spec: account('ga-1', 'ga-9') });
    await applyKyma(
      world,
      'rt-c',
      { channel: 'regular', modules: [] },
      { 'kyma-project.io/global-account-id': 'ga-1' },
    );
    await kymaInState(world, 'rt-c', 'Ready');
    await eventually('restricted MRM synced for a matching Kyma', async () =>
      Boolean(await runtime.get(remote('ModuleReleaseMeta', 'deployer'))),
    );

    await world.kcp.mergePatch(mrm, { spec: account('ga-2') });
    await world.kcp.mergePatch(kymaRef, { metadata: { annotations: { 'e2e/touched': String(Date.now()) } } });
    await eventually(
      'restricted MRM and its template removed once the selector no longer matches',
      async () =>
        !(await runtime.get(remote('ModuleReleaseMeta', 'deployer'))) &&
        !(await runtime.get(remote('ModuleTemplate', 'deployer-1.0.0'))),
    );
    await world.kcp.mergePatch(kymaRef, { metadata: { labels: { 'kyma-project.io/global-account-id': 'ga-2' } } });
    await eventually('synced again after relabelling the Kyma', async () =>
      Boolean(await runtime.get(remote('ModuleReleaseMeta', 'deployer'))),
    );

    await applyKyma(world, 'rt-c', { channel: 'regular', modules: [{ name: 'deployer' }] });
    await kymaInState(world, 'rt-c', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await world.kcp.mergePatch(mrm, { spec: account('ga-3') });
    const refused = await kymaInState(world, 'rt-c', 'Error');
    expect(refused.status?.modules?.[0]).toMatchObject({
      state: 'Error',
      message: 'module deployer is restricted and Kyma rt-c does not match its kymaSelector',
    });
    await eventually(
      'a restricted module no longer allowed is uninstalled',
      async () => (await manifestsOf(world, 'rt-c')).length === 0,
    );
    await world.kcp.mergePatch(mrm, { spec: account('ga-2') });
    await kymaInState(world, 'rt-c', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'deployer', [{ channel: 'regular', version: '9.9.9' }]);
    const failed = await kymaInState(world, 'rt-c', 'Error');
    expect(failed.status?.modules?.[0]).toMatchObject({
      state: 'Error',
      message: 'ModuleTemplate deployer-9.9.9 not found for module deployer version 9.9.9',
    });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'deployer', [{ channel: 'regular', version: '1.0.0' }]);
    await kymaInState(world, 'rt-c', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'rt-c');
    await kymaGone(world, 'rt-c');
  });

  it('a module not restricted whose ModuleReleaseMeta gets a kymaSelector is refused everywhere (upstream), until the selector goes', async () => {
    const mike = { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: 'mike' };
    await connectRuntime(world, 'rt-d', 0);
    await applyKyma(
      world,
      'rt-d',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'kyma-project.io/global-account-id': 'ga-1' },
    );
    await kymaInState(world, 'rt-d', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    try {
      await world.kcp.mergePatch(mike, { spec: account('ga-1') });
      const refused = await kymaInState(world, 'rt-d', 'Error');
      expect(refused.status?.modules?.[0]).toMatchObject({
        state: 'Error',
        message:
          'module mike is not a restricted module (LIFECYCLE_RESTRICTED_MODULES) but its ModuleReleaseMeta has a kymaSelector: not allowed',
      });
    } finally {
      await world.kcp.mergePatch(mike, { spec: { kymaSelector: null } });
    }
    await kymaInState(world, 'rt-d', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'rt-d');
    await kymaGone(world, 'rt-d');
  });
});
