// A private module registry (dockerconfigjson Secret), localized images and the runtime image pull Secret
// (upstream §8.2 scenarios 31, 32, 34) on a real registry with basic auth and real clusters.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig, locateBinaries, startRegistry, type Registry } from '../../local/controlplane/index.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { deploymentOf } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';
import { REGISTRY_LOGIN } from '../secrets.ts';

const AUTH = REGISTRY_LOGIN;
const LOCALIZED = `mirror.example.net/prod/oscar-manager:1.0.0@sha256:${'ab'.repeat(32)}`;
let world: World;
let registry: Registry;

const dockerConfig = (host: string) =>
  Buffer.from(
    JSON.stringify({
      auths: { [host]: { auth: Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64') } },
    }),
  ).toString('base64');
const secret = (name: string, data: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: KCP_NAMESPACE },
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': data },
});

beforeAll(async () => {
  const cp = inject('controlPlane');
  registry = await startRegistry(cp.runDir, await locateBinaries(), 30_000, AUTH);
  const kcp = await KubeClient.from(loadKubeConfig(cp.kcp));
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } }).catch(() => undefined);
  await kcp.apply(secret('private-registry', dockerConfig(`http://${registry.host}`)), 'e2e-user');
  await kcp.apply(secret('runtime-pull', dockerConfig('mirror.example.net')), 'e2e-user');
  world = await startWorld({
    LIFECYCLE_OCI_REGISTRY: '',
    LIFECYCLE_OCI_REGISTRY_CRED_SECRET: 'private-registry',
    LIFECYCLE_RUNTIME_IMAGE_PULL_SECRET: 'runtime-pull',
  });
  const privateRegistry = new RegistryClient({ host: registry.host, plainHttp: true, credentials: AUTH });
  await publishSampleModule(privateRegistry, world.kcp, {
    name: 'oscar',
    version: '1.0.0',
    namespace: KCP_NAMESPACE,
    images: [LOCALIZED],
  });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'oscar', [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  await stopWorld(world);
  await registry?.stop();
});

describe('private registry, localized images, image pull Secret', () => {
  it('refuses anonymous pulls, so the chain below can only have used the Secret', async () => {
    const anonymous = new RegistryClient({ host: registry.host, plainHttp: true });
    await expect(anonymous.getManifest('component-descriptors/kyma-project.io/module/oscar', '1.0.0')).rejects.toThrow(
      /401|unauthori[sz]ed/i,
    );
  });

  it('installs from the registry named by the dockerconfigjson Secret, runs the localized image and pulls with the synced Secret', async () => {
    const runtime = world.runtimes[0];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'reg-a', 0);
    await applyKyma(world, 'reg-a', { channel: 'regular', modules: [{ name: 'oscar' }] });
    const ready = await kymaInState(world, 'reg-a', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    // Upstream's condition for the copied image pull Secret.
    expect(ready.status?.conditions?.find((c) => c.type === 'SKRImagePullSecretSync')).toMatchObject({
      status: 'True',
      message: 'image pull Secret runtime-pull synced to the runtime',
    });

    const [manifest] = await manifestsOf(world, 'reg-a');
    expect(manifest?.spec?.install?.source).toMatchObject({
      repo: registry.host,
      name: 'kyma-project.io/module/oscar',
    });
    expect(manifest?.spec?.localizedImages).toEqual([LOCALIZED]);
    const deployment = (await deploymentOf(runtime, 'oscar')) as
      | {
          spec?: {
            template?: { spec?: { imagePullSecrets?: unknown; containers?: { image?: string; env?: unknown }[] } };
          };
        }
      | undefined;
    const pod = deployment?.spec?.template?.spec;
    expect(pod?.containers?.[0]?.image).toBe(LOCALIZED);
    expect(pod?.imagePullSecrets).toEqual([{ name: 'runtime-pull' }]);
    expect(pod?.containers?.[0]?.env).toEqual([{ name: 'SKR_IMG_PULL_SECRET', value: 'runtime-pull' }]);
    const copied = await runtime.get<{
      metadata: { name: string; labels?: Record<string, string> };
      type?: string;
      data?: Record<string, string>;
    }>({ apiVersion: 'v1', kind: 'Secret', namespace: 'kyma-system', name: 'runtime-pull' });
    expect(copied).toMatchObject({
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': dockerConfig('mirror.example.net') },
    });
    expect(copied?.metadata.labels?.['operator.kyma-project.io/managed-by']).toBe('kyma');

    const kyma = JSON.stringify(
      await world.kcp.get({
        apiVersion: 'operator.kyma-project.io/v1beta2',
        kind: 'Kyma',
        namespace: KCP_NAMESPACE,
        name: 'reg-a',
      }),
    );
    expect(kyma).not.toContain(AUTH.password);
    await deleteKyma(world, 'reg-a');
    await kymaGone(world, 'reg-a');
  });
});
