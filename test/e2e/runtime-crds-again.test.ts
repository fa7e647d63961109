// A Kyma's deletion removes the lifecycle CRDs from its runtime (upstream does too). The next Kyma on that runtime
// must get them again at once, although the process trusted them a moment ago (shared objects, ADR 32): its first
// sync finds a catalog kind the runtime no longer serves, forgets what it trusted there and pushes the CRDs again.
// Before, it answered "sync pending" until the trust window (60 s) had passed and the retries were spent — a
// removal test's next install waited more than 90 s for it. The bound below is that window, not a speed claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_TRUST_MS } from '../../shared/kube/shared-objects.ts';
import { publishModule } from './removal-helpers.ts';
import { applyKyma, connectRuntime, deleteKyma, deleteLeftoverKymas, eventually, kymaGone, kymaInState, startWorld, type World } from './world.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'moduletemplates.operator.kyma-project.io' };
let world: World;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'oscar', ['1.0.0']);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  await world?.runner.stop();
});

describe('the lifecycle CRDs after a Kyma deletion removed them from the runtime', () => {
  it('the next Kyma on that runtime gets them again and goes Ready, the CRDs back before the trust of the deleted ones ran out', async () => {
    const runtime = world.runtimes[0];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'crd-first', 0);
    await applyKyma(world, 'crd-first', { channel: 'regular', modules: [{ name: 'oscar' }] });
    await kymaInState(world, 'crd-first', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'crd-first');
    await kymaGone(world, 'crd-first');
    await eventually('the ModuleTemplate CRD gone from the runtime', async () => (await runtime.get(CRD)) === undefined);

    await connectRuntime(world, 'crd-next', 0);
    await applyKyma(world, 'crd-next', { channel: 'regular', modules: [{ name: 'oscar' }] });
    await eventually('the ModuleTemplate CRD pushed to the runtime again', async () => runtime.get(CRD), SHARED_TRUST_MS * 0.75);
    const ready = await kymaInState(world, 'crd-next', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(ready.status?.modules?.[0]?.name).toBe('oscar');
    await deleteKyma(world, 'crd-next');
    await kymaGone(world, 'crd-next');
  }, 300_000);
});
