// Manifest names for long Kyma names (runtime ids are long): with a 60-character Kyma name, upstream's cut to 62
// characters drops the whole hash, so two modules whose names start alike got one Manifest `<kyma>-p` that flapped
// between them. Now each module has a Manifest of its own (the hash kept, the Kyma part cut), both install and stay
// installed, and removing one removes only its objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { moduleObjectsOn, removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';

const KYMA = `runtime-${'0123456789abcdef'.repeat(4)}`.slice(0, 60);
const MODULES = ['plain-octet', 'plain-xyaml'];
const RUNTIME = 1;
let world: World;

beforeAll(async () => {
  world = await startWorld();
  for (const module of MODULES) await publishModule(world, module, ['1.0.0']);
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  const runtime = world?.runtimes[RUNTIME];
  if (runtime) for (const module of MODULES) await removeModuleLeftovers(runtime, module);
  await world?.runner.stop();
});

const allReady = (names: string[]) => (k: Kyma) =>
  (k.status?.modules ?? []).length === names.length && (k.status?.modules ?? []).every((m) => m.state === 'Ready');

describe('a 60-character Kyma name with two modules that start alike', () => {
  it('gives each module a Manifest of its own (≤ 62 characters), both Ready, nothing flapping', async () => {
    expect(KYMA).toHaveLength(60);
    await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
    await kymaInState(world, KYMA, 'Ready', allReady(MODULES));
    const manifests = await manifestsOf(world, KYMA);
    expect(manifests.map((m) => m.metadata.labels?.[LABEL.moduleName]).sort()).toEqual(MODULES);
    expect(new Set(manifests.map((m) => m.metadata.name)).size).toBe(2);
    for (const m of manifests) expect(m.metadata.name.length).toBeLessThanOrEqual(62);
    await world.runner.broker.idle();
    const before = (await manifestsOf(world, KYMA))
      .map((m) => `${m.metadata.name}@${m.metadata.resourceVersion}`)
      .sort();
    await world.runner.resync();
    await world.runner.broker.idle();
    expect(
      (await manifestsOf(world, KYMA)).map((m) => `${m.metadata.name}@${m.metadata.resourceVersion}`).sort(),
      'no Manifest rewritten by another module',
    ).toEqual(before);
  });

  it('removing one module removes its objects only', async () => {
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'plain-xyaml' }] });
    await kymaInState(world, KYMA, 'Ready', allReady(['plain-xyaml']));
    await eventually(
      'plain-octet gone from the runtime',
      async () => (await moduleObjectsOn(runtime, 'plain-octet')).length === 0,
    );
    expect((await moduleObjectsOn(runtime, 'plain-xyaml')).length).toBeGreaterThan(0);
    expect((await manifestsOf(world, KYMA)).map((m) => m.metadata.labels?.[LABEL.moduleName])).toEqual(['plain-xyaml']);
  });
});
