// A module whose manager is a StatefulSet (issue 21; upstream's "module status decoupling with StatefulSet"): Ready
// when its pod runs; a StatefulSet whose pod cannot start turns the module and the Kyma Error naming the pod (it used
// to stay Processing forever); removing that module brings the Kyma back to Ready. So is one whose StatefulSet selects
// its pods by matchExpressions only (its pods were never listed: Processing forever). Real controllers on the runtime
// (controller-manager, scheduler, kwok's node) run the pods.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';

const KYMA = 'stateful';
const RUNTIME = 1;
let world: World;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'stateful-good', ['1.0.0'], { statefulSet: true });
  await publishModule(world, 'stateful-stuck', ['1.0.0'], { statefulSet: true, unschedulable: true });
  await publishModule(world, 'stateful-picky', ['1.0.0'], {
    statefulSet: true,
    unschedulable: true,
    selectorByExpressions: true,
  });
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  const runtime = world?.runtimes[RUNTIME];
  if (runtime)
    for (const module of ['stateful-good', 'stateful-stuck', 'stateful-picky'])
      await removeModuleLeftovers(runtime, module);
  await world?.runner.stop();
});

const entry = (k: Kyma | undefined, module: string) => k?.status?.modules?.find((m) => m.name === module);

describe('a module whose manager is a StatefulSet', () => {
  it('is Ready once its pod runs; one whose pod cannot start is Error naming the pod; removing it makes the Kyma Ready', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'stateful-good' }] });
    await kymaInState(world, KYMA, 'Ready', (k) => entry(k, 'stateful-good')?.state === 'Ready');

    await applyKyma(world, KYMA, {
      channel: 'regular',
      modules: [{ name: 'stateful-good' }, { name: 'stateful-stuck' }, { name: 'stateful-picky' }],
    });
    // Their pods stay Pending (no node matches): Processing for the first minute, then Error.
    let seen = '';
    const failed = await eventually(
      () => `the stuck StatefulSet modules Error (last seen: ${seen})`,
      async () => {
        const kyma = await getKyma(world, KYMA);
        seen = JSON.stringify(kyma?.status?.modules?.map((m) => [m.name, m.state, m.message]));
        return (
          kyma?.status?.state === 'Error' &&
          entry(kyma, 'stateful-stuck')?.state === 'Error' &&
          entry(kyma, 'stateful-picky')?.state === 'Error' &&
          kyma
        );
      },
      180_000,
    );
    for (const module of ['stateful-stuck', 'stateful-picky']) {
      expect(entry(failed, module)?.message).toMatch(
        new RegExp(
          `^StatefulSet kyma-system/${module}-manager has 0/1 ready replicas; pod ${module}-manager-0 is not started \\(Pending\\) after \\d+ s$`,
        ),
      );
    }
    expect(entry(failed, 'stateful-good')?.state).toBe('Ready');
    const stuck = (await manifestsOf(world, KYMA)).find(
      (m) => m.metadata.labels?.['operator.kyma-project.io/module-name'] === 'stateful-stuck',
    );
    expect(stuck?.status?.state).toBe('Error');

    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'stateful-good' }] });
    await kymaInState(world, KYMA, 'Ready', (k) => (k.status?.modules ?? []).length === 1);
    await deleteKyma(world, KYMA);
    await kymaGone(world, KYMA);
  }, 360_000);
});
