// Reliability matrix (issue 8): the module registry is down when a Kyma asks for a module, and comes back.
// A registry of its own (the functions' LIFECYCLE_OCI_REGISTRY) holds the module; it is stopped before the Kyma is
// applied. Meanwhile the module is Error naming the registry (`module registry: manifest <host>/…: registry
// unreachable (ECONNREFUSED)`), the Kyma is not Ready and no Manifest exists; the test waits until the broker is idle
// (nothing left in flight). The registry starts again on the same port with the same storage, and the module and the
// Kyma become Ready with no manual step: the test neither touches an object nor fires the resync. What brings it
// back is the resync: the PingSource's next tick re-emits resync.due for the Kyma, which is not Ready (every minute).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRegistry, type Registry } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { testBinaries } from '../deploy/audited-kcp.ts';
import { applyKyma, connectRuntime, getKyma, manifestsOf, startWorld, stopWorld, type World } from '../e2e/world.ts';
import { brokerIdle, kymaWhen, modulesReady, secondsSince } from './restart-helpers.ts';

const KYMA = 'regdown';
const MODULE = 'yankee';
let world: World;
let registry: Registry;
/** The Kyma as it was while the registry was down (the first test), for the second. */
let whileDown: Kyma | undefined;

beforeAll(async () => {
  registry = await startRegistry(inject('controlPlane').runDir, testBinaries(), 30_000, undefined, 'registry-faults');
  world = await startWorld({ LIFECYCLE_OCI_REGISTRY: `http://${registry.host}`, LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' });
  const own = new RegistryClient({ host: registry.host, plainHttp: true });
  await publishSampleModule(own, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  if (registry?.process.exit()) await registry.start();
  await stopWorld(world);
  await registry?.stop();
});

const namesRegistry = (k: Kyma | undefined) =>
  Boolean(
    k?.status?.lastOperation?.operation?.includes(registry.host) ||
    k?.status?.modules?.some((m) => m.name === MODULE && m.state !== 'Ready' && m.message?.includes(registry.host)),
  );

describe('the module registry stopped and started again', () => {
  it('while it is down: the module is Error naming the registry, the Kyma not Ready, nothing installed', async () => {
    await registry.stop();
    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    whileDown = await kymaWhen(world, KYMA, 'the module Error naming the registry', (k) => namesRegistry(k), 120_000);
    await brokerIdle(world);
    whileDown = await getKyma(world, KYMA);
    expect(whileDown?.status?.state).not.toBe('Ready');
    expect(namesRegistry(whileDown), `status: ${JSON.stringify(whileDown?.status)}`).toBe(true);
    expect(whileDown?.status?.modules?.filter((m) => m.state === 'Ready') ?? []).toEqual([]);
    expect(await manifestsOf(world, KYMA)).toEqual([]);
  }, 240_000);

  it('started again on the same port and storage → Ready with no manual step', async () => {
    const started = Date.now();
    await registry.start();
    await kymaWhen(
      world,
      KYMA,
      'Ready with the module Ready',
      (k) => k.status?.state === 'Ready' && modulesReady(1, '1.0.0')(k),
      180_000,
    );
    console.info(`[faults] registry started again → Kyma Ready in ${secondsSince(started)} s`);
    expect((await manifestsOf(world, KYMA)).map((m) => m.status?.state)).toEqual(['Ready']);
  }, 240_000);
});
