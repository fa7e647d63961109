// The world of the runtime-side tests (runtime-side, runtime-kyma, restricted-modules): `deployer` a restricted
// module, `mike` with 1.0.0 on regular and a beta 2.0.0 on fast.
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { startWorld, type World } from './world.ts';

/** An object of the runtime's kyma-system namespace in the lifecycle API group. */
export const remote = (kind: string, name: string) => ({
  apiVersion: API_VERSION,
  kind,
  namespace: 'kyma-system',
  name,
});

export async function startRuntimeSideWorld(env: Record<string, string> = {}): Promise<World> {
  const world = await startWorld({ LIFECYCLE_RESTRICTED_MODULES: 'deployer', ...env });
  await publishSampleModule(world.registry, world.kcp, {
    name: 'deployer',
    version: '1.0.0',
    namespace: KCP_NAMESPACE,
  });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'deployer', [{ channel: 'regular', version: '1.0.0' }]);
  await publishSampleModule(world.registry, world.kcp, { name: 'mike', version: '1.0.0', namespace: KCP_NAMESPACE });
  await publishSampleModule(world.registry, world.kcp, {
    name: 'mike',
    version: '2.0.0',
    namespace: KCP_NAMESPACE,
    beta: true,
  });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'mike', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
  ]);
  return world;
}
