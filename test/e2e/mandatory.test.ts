import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setMandatoryVersion } from '../../tools/module/publish.ts';
import { crRef, deploymentOf, moduleCrOn } from './removal-helpers.ts';
import { checkedAgain, kymaKey } from './handled.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
const MRM = { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: 'india' };

beforeAll(async () => {
  world = await startWorld();
  for (const version of ['1.0.0', '2.0.0'])
    await publishSampleModule(world.registry, world.kcp, { name: 'india', version, namespace: KCP_NAMESPACE });
});

afterAll(async () => {
  await stopWorld(world);
});

describe('mandatory modules', () => {
  it('installs on every Kyma without a spec or status entry, upgrades with the MRM, and goes everywhere when the MRM is deleted', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'mand-a', 1);
    await applyKyma(world, 'mand-a', { channel: 'regular', modules: [] });
    await kymaInState(world, 'mand-a', 'Ready');
    await setMandatoryVersion(world.kcp, KCP_NAMESPACE, 'india', '1.0.0');

    const manifest = await eventually('mandatory Manifest Ready', async () => {
      const [m] = await manifestsOf(world, 'mand-a');
      return m?.status?.state === 'Ready' ? m : undefined;
    });
    expect(manifest.metadata.labels).toMatchObject({
      'operator.kyma-project.io/mandatory-module': 'true',
      'operator.kyma-project.io/module-name': 'india',
    });
    expect(manifest.metadata.labels).not.toHaveProperty('operator.kyma-project.io/channel');
    expect(manifest.spec?.version).toBe('1.0.0');
    expect(await deploymentOf(runtime, 'india')).toBeDefined();
    expect(await runtime.get(crRef('india', manifest.metadata.name, 'kyma-system'))).toBeDefined();
    const kyma = await kymaInState(world, 'mand-a', 'Ready');
    expect(kyma.spec?.modules ?? []).toEqual([]);
    expect(kyma.status?.modules ?? []).toEqual([]);
    expect((await world.kcp.get<Manifest>(MRM))?.metadata.finalizers).toContain(
      'operator.kyma-project.io/mandatory-module',
    );
    // The runtime's module catalog leaves mandatory modules out (upstream): neither its release meta nor its templates —
    // also after a full check of the Kyma, in which aggregate-status pushes the catalog again.
    await checkedAgain(world, kymaKey('mand-a'));
    const copy = (kind: string, name: string) =>
      runtime.get({ apiVersion: API_VERSION, kind, namespace: 'kyma-system', name });
    expect(await copy('ModuleReleaseMeta', 'india')).toBeUndefined();
    expect(await copy('ModuleTemplate', 'india-1.0.0')).toBeUndefined();

    await setMandatoryVersion(world.kcp, KCP_NAMESPACE, 'india', '2.0.0');
    await eventually('operator upgraded to 2.0.0', async () =>
      (await deploymentOf(runtime, 'india'))?.spec?.template?.spec?.containers?.[0]?.image?.endsWith(':2.0.0'),
    );

    await world.kcp.delete(MRM);
    await eventually('mandatory Manifest removed', async () => (await manifestsOf(world, 'mand-a')).length === 0);
    expect(await deploymentOf(runtime, 'india')).toBeUndefined();
    expect(await moduleCrOn(runtime, crRef('india', manifest.metadata.name, 'kyma-system'))).toBeUndefined();
    await eventually('MRM gone (finalizer released)', async () => (await world.kcp.get(MRM)) === undefined);
    await kymaInState(world, 'mand-a', 'Ready');
    await deleteKyma(world, 'mand-a');
    await kymaGone(world, 'mand-a');
  });
});
