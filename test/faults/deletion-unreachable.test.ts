// A Kyma deleted while its runtime's kube-apiserver is down (issue 34 item 2). Before, purge failed on the runtime read
// ahead of its first step, which needs only the KCP, and aggregate-status leaves a deleting Kyma alone: for the whole
// outage the Kyma said `Ready — kyma is ready`. Now it is `Deleting` at once, its lastOperation names the unreachable
// runtime while it waits, its Manifest is `Deleting` too (never the Ready it had), and once the runtime is back the
// runtime Kyma shows `Deleting` (upstream's SetSkrKymaStateDeleting) before the deletion finishes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { REMOTE_KYMA } from '../../shared/kube/remote-namespace.ts';
import { publishModule } from '../e2e/removal-helpers.ts';
import { throwawayRuntime } from '../e2e/throwaway.ts';
import {
  applyKyma,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from '../e2e/world.ts';
import { connectCluster } from './restart-helpers.ts';

const KYMA = 'gone-while-down';
const MODULE = 'yankee';
let world: World;
let cluster: Cluster;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, MODULE, ['1.0.0']);
  cluster = await throwawayRuntime('deletion-unreachable-runtime');
});

afterAll(async () => {
  if (cluster?.apiServer.exit()) await cluster.restartApiServer();
  if (world) await deleteLeftoverKymas(world);
  await world?.kcp
    .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: KYMA })
    .catch(() => undefined);
  await world?.runner.stop();
  await cluster?.stop();
});

/** A finalizer of the test's on the runtime Kyma: its deletion then waits, so the test can read what it showed. */
const HOLD = 'e2e.kyma-project.io/hold';

describe('a Kyma deleted while its runtime cannot be reached', () => {
  it('is Deleting at once, names the unreachable runtime while it waits, and the runtime Kyma shows Deleting once it is back', async () => {
    const runtime = await connectCluster(world, KYMA, cluster);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    // The runtime Kyma comes once the runtime serves its CRD (pushed with the runtime side), which on a busy machine
    // can be after the modules are Ready.
    await eventually('the runtime Kyma', () => runtime.get<Kyma>(REMOTE_KYMA));
    await runtime.mergePatch(REMOTE_KYMA, { metadata: { finalizers: [HOLD] } });
    await cluster.apiServer.kill();
    await deleteKyma(world, KYMA);
    const waiting = await kymaInState(world, KYMA, 'Deleting', (k) =>
      Boolean(k.status?.lastOperation?.operation.includes(`runtime of Kyma ${KYMA} unreachable`)),
    );
    expect(waiting.status?.lastOperation?.operation).toMatch(/^waiting for the runtime to clean it up: /);
    const [manifest] = await eventually('the Manifest Deleting, naming the runtime', async () => {
      const all = await manifestsOf(world, KYMA);
      return all[0]?.status?.state === 'Deleting' && all[0].status.lastOperation?.operation?.includes('unreachable')
        ? all
        : undefined;
    });
    expect(manifest?.metadata.deletionTimestamp).toBeDefined();

    await cluster.restartApiServer();
    const remote = await eventually(
      "the runtime Kyma deleted (held by the test's finalizer)",
      async () => {
        const found = await runtime.get<Kyma>(REMOTE_KYMA);
        return found?.metadata.deletionTimestamp ? found : undefined;
      },
      180_000,
    );
    expect(remote.status?.state, 'the runtime Kyma showed the deletion before it went').toBe('Deleting');
    await runtime.mergePatch(REMOTE_KYMA, { metadata: { finalizers: null } });
    await kymaGone(world, KYMA, 180_000);
    const events = (
      await world.kcp.list<{ metadata: { name: string }; reason?: string }>('v1', 'Event', {
        namespace: KCP_NAMESPACE,
        fieldSelector: `involvedObject.name=${KYMA}`,
      })
    ).items;
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['SetKcpKymaStateDeleting', 'SetSkrKymaStateDeleting', 'DropKymaFinalizer']),
    );
  }, 400_000);
});
