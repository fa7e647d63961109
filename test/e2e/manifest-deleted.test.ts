import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleStatus } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import {
  applyKyma,
  connectRuntime,
  eventually,
  justAfterTheMinute,
  kymaInState,
  manifestsOf,
  resyncTicks,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

// A Manifest someone deletes on the KCP comes back, as upstream's Kyma controller re-creates what it owns: the
// deletion uninstalls the module (apply-remote), and the Kyma's next resolution renders it again — by events, not by
// the minute's resync (the guard for any filter on which Kyma updates reach resolve-template, issue 35).
let world: World;
const sample = (k: { status?: { modules?: ModuleStatus[] } } | undefined) =>
  k?.status?.modules?.find((m) => m.name === 'sample');

beforeAll(async () => {
  world = await startWorld();
  await publishSampleModule(world.registry, world.kcp, { name: 'sample', version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'sample', [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('a Manifest deleted on the KCP', () => {
  it('is rendered again and installed, without waiting for a resync tick', async () => {
    await connectRuntime(world, 'kyma-m', 0);
    await applyKyma(world, 'kyma-m', { channel: 'regular', modules: [{ name: 'sample' }] });
    await kymaInState(world, 'kyma-m', 'Ready', (k) => sample(k)?.state === 'Ready');
    const [first] = await manifestsOf(world, 'kyma-m');
    if (!first) throw new Error('no Manifest for module sample');
    await justAfterTheMinute();
    const ticks = resyncTicks(world);
    await world.kcp.delete({
      apiVersion: API_VERSION,
      kind: 'Manifest',
      namespace: KCP_NAMESPACE,
      name: first.metadata.name,
    });
    const again = await eventually('a new Manifest of module sample', async () =>
      (await manifestsOf(world, 'kyma-m')).find((m) => m.metadata.uid !== first.metadata.uid),
    );
    expect(resyncTicks(world), 'no resync tick came while it was rendered again').toBe(ticks);
    expect(again.metadata.name).toBe(first.metadata.name);
    expect(again.spec?.version).toBe('1.0.0');
    const kyma = await kymaInState(world, 'kyma-m', 'Ready', (k) => sample(k)?.state === 'Ready');
    expect(sample(kyma)?.version).toBe('1.0.0');
  });
});
