// A kubeconfig Secret that appears, changes or goes reaches its Kyma within seconds (the runtime watch announces it),
// not at the next resync tick: a Kyma created before its Secret becomes Ready once the Secret is there; a Secret
// rotated to garbage turns the Kyma Error, and rotated back Ready — each without a tick and without touching the Kyma.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  justAfterTheMinute,
  kymaInState,
  resyncTicks,
  startWorld,
  type World,
} from './world.ts';

const KYMA = 'sec-late';
const MODULE = 'victor';
let world: World;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, MODULE, ['1.0.0']);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  await world?.kcp
    .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: KYMA })
    .catch(() => undefined);
  await world?.runner.stop();
});

const moduleReady = (k: { status?: { modules?: { state?: string }[] } }) => k.status?.modules?.[0]?.state === 'Ready';
const garbage = () =>
  world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: KYMA, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: KYMA } },
      data: { config: Buffer.from('not a kubeconfig').toString('base64') },
    },
    'e2e-user',
  );

/** Runs `step` between two resync ticks and fails if one came in between (then the test would prove nothing). */
async function withoutTick(what: string, step: () => Promise<unknown>): Promise<void> {
  await world.runner.broker.idle();
  await justAfterTheMinute();
  const ticks = resyncTicks(world);
  await step();
  expect(resyncTicks(world), `no resync tick during: ${what}`).toBe(ticks);
}

describe('kubeconfig Secret events', () => {
  it('a Kyma created before its Secret: waiting, naming the missing Secret; the Secret appears → Ready without a tick', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await eventually(
      'the Kyma says it waits for its kubeconfig Secret',
      async () => (await getKyma(world, KYMA))?.status?.lastOperation?.operation?.includes('kubeconfig Secret'),
      60_000,
    );
    await withoutTick('the Secret appears and the Kyma becomes Ready', async () => {
      await connectRuntime(world, KYMA, 0);
      await kymaInState(world, KYMA, 'Ready', moduleReady);
    });
  }, 180_000);

  it('the Secret rotated to garbage → Error; rotated back → Ready, without a tick', async () => {
    await withoutTick('the Secret goes bad and comes back', async () => {
      await garbage();
      await kymaInState(world, KYMA, 'Error', (k) =>
        (k.status?.lastOperation?.operation ?? '').includes('does not hold a usable kubeconfig'),
      );
      await connectRuntime(world, KYMA, 0);
      await kymaInState(world, KYMA, 'Ready', moduleReady);
    });
  }, 180_000);
});
