// Two modules of one Kyma that ship the same cluster-scoped object (issue 21, ADR 33): a ClusterRole of the same
// name in both manifests used to alternate between the two modules' rules at every drift re-apply, with both modules
// Ready, and removing one deleted what the other still shipped. Now the module that holds it keeps it, the other is
// Warning naming the conflict, nothing changes over several drift periods, and removing the holder leaves the object
// to the other module, which takes it over — it is never deleted meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import { applyKyma, connectRuntime, deleteKyma, deleteLeftoverKymas, eventually, getKyma, kymaGone, kymaInState, manifestsOf, startWorld, type World } from './world.ts';

const KYMA = 'shared-role';
const MODULES = ['share-one', 'share-two'];
const ROLE = 'kyma-e2e-shared-reader';
const ROLE_REF = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: ROLE };
const RUNTIME = 0;
let world: World;
let runtime: KubeClient;

interface Role { metadata: { resourceVersion: string; labels?: Record<string, string>; annotations?: Record<string, string> }; rules: { resources: string[] }[] }

beforeAll(async () => {
  // A drift period of one minute: the window below spans two of them.
  world = await startWorld({ LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' });
  for (const module of MODULES) await publishModule(world, module, ['1.0.0'], { sharedClusterRole: ROLE });
  const found = world.runtimes[RUNTIME];
  if (!found) throw new Error('no runtime');
  runtime = found;
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  if (runtime) for (const module of MODULES) await removeModuleLeftovers(runtime, module);
  await runtime?.delete(ROLE_REF).catch(() => undefined);
  await world?.runner.stop();
});

const stateOf = (k: Kyma, module: string) => k.status?.modules?.find((m) => m.name === module)?.state;

describe('two modules of one Kyma ship the same ClusterRole', () => {
  it('the holder keeps it, the other is Warning naming it, nothing flaps over two drift periods; removing the holder hands it over, never deleting it', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
    // Installed at the same moment, both may apply it first; the next full sync of the one that does not hold it (at
    // the latest its drift check, a minute here) leaves it to the holder.
    const settled = await eventually('one module Ready, the other Warning', async () => {
      const kyma = await getKyma(world, KYMA);
      return kyma?.status?.state === 'Warning' && MODULES.map((m) => stateOf(kyma, m)).sort().join() === 'Ready,Warning' && kyma;
    }, 240_000);
    const role = await runtime.get<Role>(ROLE_REF);
    const holderManifest = role?.metadata.annotations?.[ANNOTATION.ownedBy]?.split('/')[1];
    const manifests = await manifestsOf(world, KYMA);
    const holder = manifests.find((m) => m.metadata.name === holderManifest)?.metadata.labels?.[LABEL.moduleName] ?? '';
    const other = MODULES.find((m) => m !== holder) ?? '';
    expect(MODULES, 'the ClusterRole names one of the two modules\' Manifests as its holder').toContain(holder);
    expect(role?.metadata.labels?.['shipped-by']).toBe(holder);
    expect(stateOf(settled, holder)).toBe('Ready');
    expect(stateOf(settled, other)).toBe('Warning');
    const warning = settled.status?.modules?.find((m) => m.name === other)?.message ?? '';
    expect(warning).toContain(`ClusterRole ${ROLE} is shipped by module ${holder} too`);

    // Two drift periods: the holder's drift checks and the other's pending resyncs each read the ClusterRole; neither writes it.
    const before = role?.metadata.resourceVersion;
    await new Promise((resolve) => setTimeout(resolve, 125_000));
    const after = await runtime.get<Role>(ROLE_REF);
    expect(after?.metadata.resourceVersion, 'the ClusterRole was not written again').toBe(before);
    const steady = await kymaInState(world, KYMA, 'Warning');
    expect([stateOf(steady, holder), stateOf(steady, other)]).toEqual(['Ready', 'Warning']);

    // The holder goes: the ClusterRole stays throughout and the other module takes it over.
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: other }] });
    const taken = await eventually(`${other} holds the ClusterRole and the Kyma is Ready`, async () => {
      const live = await runtime.get<Role>(ROLE_REF);
      expect(live, 'the ClusterRole is never deleted while a module ships it').toBeDefined();
      const kyma = await getKyma(world, KYMA);
      const ready = kyma?.status?.state === 'Ready' && stateOf(kyma, other) === 'Ready' && (await manifestsOf(world, KYMA)).length === 1;
      return ready && live?.metadata.labels?.['shipped-by'] === other && live;
    }, 180_000);
    expect(taken.rules[0]?.resources).toEqual([`${other}s`]);

    await deleteKyma(world, KYMA);
    await kymaGone(world, KYMA);
    expect(await runtime.get(ROLE_REF), 'with the last module that ships it, the ClusterRole goes').toBeUndefined();
  }, 480_000);
});
