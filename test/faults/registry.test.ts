// Reliability matrix (issue 8): the module registry is down when a Kyma asks for a module, and comes back.
// A registry of its own (the functions' LIFECYCLE_OCI_REGISTRY) holds the module; it is stopped before the Kyma is
// applied and stays down until the broker has nothing left to retry: resolve-template's Trigger gave up on every event
// of the Kyma (5 retries, 1 s doubling to 16 s: about half a minute each, then dead-lettered). Meanwhile the Kyma is
// not Ready and no Manifest exists. The registry starts again on the same port with the same storage, and the module
// and the Kyma become Ready with no manual step: the test neither touches an object nor fires the resync. With nothing
// in flight, what brings it back is the resync: the PingSource's next tick re-emits resync.due for the Kyma, which is
// not Ready (every minute).
// Known defect (marked `it.fails`): while the registry is down the Kyma's status does not say why. resolve-template
// answers 503 (`module registry: manifest <host>/component-descriptors/…: registry unreachable (ECONNREFUSED)`, in the
// log only) and the Kyma stays Processing with `waiting for the module list to be resolved` and no module entry.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRegistry, type Registry } from '../../shared/controlplane/index.ts';
import type { Kyma } from '../../shared/domain/kyma.ts';
import { KCP_NAMESPACE } from '../../shared/domain/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../shared/module/publish.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { testBinaries } from '../deploy/audited-kcp.ts';
import { applyKyma, connectRuntime, deleteLeftoverKymas, eventually, getKyma, manifestsOf, startWorld, type World } from '../e2e/world.ts';
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
  if (world) await deleteLeftoverKymas(world);
  await world?.runner.stop();
  await registry?.stop();
});

const namesRegistry = (k: Kyma | undefined) => Boolean(k?.status?.lastOperation?.operation?.includes(registry.host)
  || k?.status?.modules?.some((m) => m.name === MODULE && m.state !== 'Ready' && m.message?.includes(registry.host)));

describe('the module registry stopped and started again', () => {
  it('while it is down: the Kyma is not Ready and nothing is installed, until nothing is left to retry', async () => {
    await registry.stop();
    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await eventually(`resolve-template dead-lettered an event of Kyma ${KYMA}`, async () =>
      world.runner.broker.deadLetters().some((l) => l.trigger === 'resolve-template' && l.event['name'] === KYMA), 120_000);
    await brokerIdle(world);
    whileDown = await getKyma(world, KYMA);
    expect(whileDown?.status?.state).toBe('Processing');
    expect(whileDown?.status?.modules?.filter((m) => m.state === 'Ready') ?? []).toEqual([]);
    expect(await manifestsOf(world, KYMA)).toEqual([]);
  }, 240_000);

  it.fails('while it is down: the Kyma\'s status names the registry (known defect: resolve-template keeps the registry outage in its log)', () => {
    expect(whileDown, 'the first test saw the Kyma').toBeDefined();
    expect(namesRegistry(whileDown), `status: ${JSON.stringify(whileDown?.status)}`).toBe(true);
  });

  it('started again on the same port and storage → Ready with no manual step', async () => {
    const started = Date.now();
    await registry.start();
    await kymaWhen(world, KYMA, 'Ready with the module Ready', (k) => k.status?.state === 'Ready' && modulesReady(1, '1.0.0')(k), 180_000);
    console.info(`[faults] registry started again → Kyma Ready in ${secondsSince(started)} s`);
    expect((await manifestsOf(world, KYMA)).map((m) => m.status?.state)).toEqual(['Ready']);
  }, 240_000);
});
