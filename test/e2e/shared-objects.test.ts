// Two modules of one Kyma that ship the same cluster-scoped object (issue 21, ADR 33): a ClusterRole of the same
// name in both manifests used to alternate between the two modules' rules at every drift re-apply, with both modules
// Ready, and removing one deleted what the other still shipped. Now the module that holds it keeps it, the other is
// Warning naming the conflict, nothing changes over several drift periods, and removing the holder leaves the object
// to the other module, which takes it over at once (not at its next resync) — it is never deleted meanwhile. A second
// ClusterRole both ship alike (but for what names the Manifest) is left to its holder without a warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  justAfterTheMinute,
  kymaGone,
  kymaInState,
  manifestsOf,
  resyncTicks,
  startWorld,
  type World,
} from './world.ts';

const KYMA = 'shared-role';
const MODULES = ['share-one', 'share-two'];
const ROLE = 'kyma-e2e-shared-reader';
const ROLE_REF = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: ROLE };
/** Shipped alike by both modules. */
const SAME = 'kyma-e2e-same-reader';
const SAME_REF = { ...ROLE_REF, name: SAME };
const SAME_ROLE = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: SAME },
  rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
};
const RUNTIME = 0;
let world: World;
let runtime: KubeClient;

interface Role {
  metadata: { resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  rules: { resources: string[] }[];
}

beforeAll(async () => {
  // A drift period of one minute: the window below spans two of them.
  world = await startWorld({ LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' });
  for (const module of MODULES)
    await publishModule(world, module, ['1.0.0'], { sharedClusterRole: ROLE, extraObjects: [SAME_ROLE] });
  const found = world.runtimes[RUNTIME];
  if (!found) throw new Error('no runtime');
  runtime = found;
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  if (runtime) for (const module of MODULES) await removeModuleLeftovers(runtime, module);
  for (const ref of [ROLE_REF, SAME_REF]) await runtime?.delete(ref).catch(() => undefined);
  await world?.runner.stop();
});

const stateOf = (k: Kyma, module: string) => k.status?.modules?.find((m) => m.name === module)?.state;

describe('two modules of one Kyma ship the same ClusterRole', () => {
  it('the holder keeps it, the other is Warning naming it, nothing flaps over two drift periods; removing the holder hands it over, never deleting it', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
    // Installed at the same moment, both may apply it first; the next full sync of the one that does not hold it (at
    // the latest its drift check, a minute here) leaves it to the holder.
    const settled = await eventually(
      'one module Ready, the other Warning',
      async () => {
        const kyma = await getKyma(world, KYMA);
        return (
          kyma?.status?.state === 'Warning' &&
          MODULES.map((m) => stateOf(kyma, m))
            .sort()
            .join() === 'Ready,Warning' &&
          kyma
        );
      },
      240_000,
    );
    const role = await runtime.get<Role>(ROLE_REF);
    const holderManifest = role?.metadata.annotations?.[ANNOTATION.ownedBy]?.split('/')[1];
    const manifests = await manifestsOf(world, KYMA);
    const holder = manifests.find((m) => m.metadata.name === holderManifest)?.metadata.labels?.[LABEL.moduleName] ?? '';
    const other = MODULES.find((m) => m !== holder) ?? '';
    expect(MODULES, "the ClusterRole names one of the two modules' Manifests as its holder").toContain(holder);
    expect(role?.metadata.labels?.['shipped-by']).toBe(holder);
    expect(stateOf(settled, holder)).toBe('Ready');
    expect(stateOf(settled, other)).toBe('Warning');
    const warning = settled.status?.modules?.find((m) => m.name === other)?.message ?? '';
    expect(warning).toContain(`ClusterRole ${ROLE} is shipped by module ${holder} too`);
    expect(warning, 'the ClusterRole both ship alike is no reason to warn').not.toContain(SAME);

    // Two drift periods: the holder's drift checks and the other's pending resyncs each read the ClusterRole; neither writes it.
    const before = role?.metadata.resourceVersion;
    const sameBefore = (await runtime.get<Role>(SAME_REF))?.metadata.resourceVersion;
    await new Promise((resolve) => setTimeout(resolve, 125_000));
    const after = await runtime.get<Role>(ROLE_REF);
    expect(after?.metadata.resourceVersion, 'the ClusterRole was not written again').toBe(before);
    expect((await runtime.get<Role>(SAME_REF))?.metadata.resourceVersion, 'nor the one both ship alike').toBe(
      sameBefore,
    );
    const steady = await kymaInState(world, KYMA, 'Warning');
    expect([stateOf(steady, holder), stateOf(steady, other)]).toEqual(['Ready', 'Warning']);

    // The holder goes: the ClusterRoles stay throughout and the other module takes them over as soon as the holder's
    // Manifest is gone (its deletion sends the other a resync.due), not at the next resync tick.
    const otherManifest = manifests.find((m) => m.metadata.labels?.[LABEL.moduleName] === other)?.metadata.name ?? '';
    await world.runner.broker.idle();
    await justAfterTheMinute();
    const ticksBefore = resyncTicks(world);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: other }] });
    const taken = await eventually(
      `${other} holds the ClusterRoles and the Kyma is Ready`,
      async () => {
        const [live, same] = [await runtime.get<Role>(ROLE_REF), await runtime.get<Role>(SAME_REF)];
        expect(live, 'the ClusterRole is never deleted while a module ships it').toBeDefined();
        expect(same, 'nor the one both ship alike').toBeDefined();
        const kyma = await getKyma(world, KYMA);
        const ready =
          kyma?.status?.state === 'Ready' &&
          stateOf(kyma, other) === 'Ready' &&
          (await manifestsOf(world, KYMA)).length === 1;
        return (
          ready &&
          live?.metadata.labels?.['shipped-by'] === other &&
          same?.metadata.annotations?.[ANNOTATION.ownedBy]?.endsWith(`/${otherManifest}`) &&
          live
        );
      },
      40_000,
    );
    expect(resyncTicks(world), 'taken over without a resync tick').toBe(ticksBefore);
    expect(taken.rules[0]?.resources).toEqual([`${other}s`]);

    await deleteKyma(world, KYMA);
    await kymaGone(world, KYMA);
    expect(await runtime.get(ROLE_REF), 'with the last module that ships it, the ClusterRole goes').toBeUndefined();
  }, 600_000);
});
