// Hostile and broken raw-manifest layers (issue 8), end to end on the real registry and clusters: invalid YAML, an
// alias bomb, a document without kind, tar entries escaping the archive, links, a gzip bomb, a layer over the size
// limit, and a blob whose bytes do not match its digest (tampered on the way by a man in the middle). Each module
// ends in Error with the reason on its Manifest and in the Kyma's status, and not one of its objects reaches the
// runtime; a good module in the same Kyma installs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { sampleComponent } from '../../tools/module/sample.ts';
import { deploymentOf } from '../e2e/removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from '../e2e/world.ts';
import { HOSTILE_LAYERS, publishHostileModule } from './hostile-modules.ts';
import { startTamperProxy, type TamperProxy } from './tamper-proxy.ts';

const KYMA = 'hostile-layers';
const GOOD = 'victor';
const TAMPERED = 'hostile-tampered';
const moduleOf = (layer: string) => `hostile-${layer}`;
let proxy: TamperProxy;
let world: World;

beforeAll(async () => {
  const direct = await startWorld();
  await direct.runner.stop(); // only its clients: the runner that counts goes through the proxy
  proxy = await startTamperProxy(direct.registry.host);
  world = await startWorld({ LIFECYCLE_OCI_REGISTRY: `http://${proxy.host}` });
  const base = { version: '1.0.0', namespace: KCP_NAMESPACE, registryBaseUrl: proxy.host };
  for (const layer of HOSTILE_LAYERS) {
    await publishHostileModule(
      direct.registry,
      world.kcp,
      { ...base, name: moduleOf(layer.name) },
      layer.bytes(),
      layer.mediaType,
    );
  }
  await publishSampleModule(direct.registry, world.kcp, { ...base, name: GOOD });
  const tampered = await publishHostileModule(
    direct.registry,
    world.kcp,
    { ...base, name: TAMPERED },
    new TextEncoder().encode('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: honest, namespace: kyma-system}\n'),
    'application/octet-stream',
  );
  proxy.tampered.set(
    tampered,
    new TextEncoder().encode('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: evil, namespace: kyma-system}\n'),
  );
  const modules = [...HOSTILE_LAYERS.map((l) => moduleOf(l.name)), TAMPERED, GOOD];
  for (const name of modules)
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  await connectRuntime(world, KYMA, 0);
  await applyKyma(world, KYMA, { channel: 'regular', modules: modules.map((name) => ({ name })) });
}, 300_000);

afterAll(async () => {
  await stopWorld(world);
  await proxy?.close();
});

const manifestOf = async (module: string): Promise<Manifest | undefined> =>
  (await manifestsOf(world, KYMA)).find((m) => m.spec?.install?.source?.name === sampleComponent(module));

function runtime() {
  const client = world.runtimes[0];
  if (!client) throw new Error('no runtime');
  return client;
}

async function inError(module: string): Promise<Manifest> {
  return eventually(
    () => `Manifest of ${module} in Error`,
    async () => {
      const manifest = await manifestOf(module);
      return manifest?.status?.state === 'Error' ? manifest : undefined;
    },
  );
}

describe('hostile raw-manifest layers', () => {
  it.each(HOSTILE_LAYERS.map((l) => [l.what, l] as const))(
    'refuses %s: Manifest Error with the reason, nothing applied',
    async (_what, layer) => {
      const manifest = await inError(moduleOf(layer.name));
      expect(JSON.stringify(manifest.status)).toMatch(layer.refusal);
      expect(await deploymentOf(runtime(), moduleOf(layer.name))).toBeUndefined();
    },
  );

  it('refuses a blob whose bytes do not match its digest (tampered in transit): nothing of it applied', async () => {
    const manifest = await inError(TAMPERED);
    expect(JSON.stringify(manifest.status)).toMatch(/digest/);
    expect(proxy.served.length).toBeGreaterThan(0);
    expect(
      await runtime().get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: 'evil' }),
    ).toBeUndefined();
    expect(
      await runtime().get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: 'honest' }),
    ).toBeUndefined();
  });

  it('installs the good module of the same Kyma and reports the others in its status', async () => {
    const kyma = await eventually(
      () => `Kyma ${KYMA} Error with ${GOOD} Ready`,
      async () => {
        const seen = await getKyma(world, KYMA);
        const states = new Map((seen?.status?.modules ?? []).map((m) => [m.name, m.state]));
        return seen?.status?.state === 'Error' && states.get(GOOD) === 'Ready' ? states : undefined;
      },
    );
    for (const layer of HOSTILE_LAYERS) expect(kyma.get(moduleOf(layer.name)), layer.what).toBe('Error');
    expect(await deploymentOf(runtime(), GOOD)).toBeDefined();
    await deleteKyma(world, KYMA);
    await kymaGone(world, KYMA);
  });
});
