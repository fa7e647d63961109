// Reliability matrix, fault "concurrent updates": two complete, independent instances of the lifecycle manager (every
// function, broker and source twice, as two replicas without per-key ordering between them) work on one Kyma while a
// user keeps editing it for ten seconds — switching a module back and forth on the runtime Kyma and annotating the
// KCP Kyma and its Manifests. Writes do conflict: the KCP refuses Kyma status and Manifest writes with 409 (a lone
// instance with no user sees a few Kyma status 409s and none on Manifests) and both instances answer LCM_ERR_CONFLICT.
// Once both have no work left: the Kyma is Ready with exactly the wanted modules, one Manifest per module, status that
// matches the spec, the switched-out module gone from the runtime, the user's own edits kept, and nothing moving.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  manifestsOf,
  REMOTE_KYMA,
  type World,
} from '../e2e/world.ts';
import {
  kcpRequestCounters,
  moduleObjectsOn,
  refusedWrites,
  removeModuleLeftovers,
  startInstance,
  total,
  USER_ANNOTATION,
  userEdits,
  type Instance,
  type UserEdits,
} from './conflicts-helpers.ts';
import { chainState, worldWithoutRunner } from './function-host-helpers.ts';

const KYMA = 'kyma-conflicts';
const RUNTIME = 1;
const WANTED = ['foxtrot', 'golf'];
const ALTERNATIVE = ['foxtrot', 'hotel'];
const MODULES = ['foxtrot', 'golf', 'hotel'];
const EDIT_SECONDS = 10;

let world: World;
const instances: Instance[] = [];

beforeAll(async () => {
  world = await worldWithoutRunner();
  for (const name of MODULES) {
    await publishSampleModule(world.registry, world.kcp, { name, version: '1.0.0', namespace: KCP_NAMESPACE });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  }
  for (const label of ['instance-a', 'instance-b']) instances.push(await startInstance(label));
});

afterAll(async () => {
  if (!world) return;
  await deleteKyma(world, KYMA).catch(() => undefined);
  await kymaGone(world, KYMA).catch(() => undefined);
  for (const instance of instances) await instance.runner.stop();
  const runtime = world.runtimes[RUNTIME];
  if (!runtime) return;
  for (const module of MODULES) {
    const left = await removeModuleLeftovers(runtime, module);
    if (left.length) console.log(`[faults] removed what module ${module} left on the runtime: ${left.join(', ')}`);
  }
});

const modules = (names: string[]) => names.map((name) => ({ name }));
const sorted = (values: (string | undefined)[]) => [...values].sort();
const moduleOf = (m: { metadata: { labels?: Record<string, string> | undefined } }) =>
  m.metadata.labels?.[LABEL.moduleName];
const deployment = (name: string) =>
  world.runtimes[RUNTIME]?.get<{ kind?: string; status?: { availableReplicas?: number } }>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'kyma-system',
    name,
  });

let lastSeen: unknown;
/** The Kyma once it is Ready with exactly the wanted modules, each Ready, and exactly one Ready Manifest per wanted module. */
async function convergedKyma(): Promise<Kyma | undefined> {
  const kyma = await getKyma(world, KYMA);
  lastSeen = {
    state: kyma?.status?.state,
    modules: kyma?.status?.modules?.map((m) => [m.name, m.state, m.message]),
    manifests: await chainState(world, KYMA).then((s) => s.manifests),
  };
  const entries = kyma?.status?.modules ?? [];
  if (kyma?.status?.state !== 'Ready' || entries.some((m) => m.state !== 'Ready')) return undefined;
  const manifests = await manifestsOf(world, KYMA);
  if (manifests.some((m) => m.status?.state !== 'Ready' || m.metadata.deletionTimestamp)) return undefined;
  const same = (names: (string | undefined)[]) => JSON.stringify(sorted(names)) === JSON.stringify(WANTED);
  return same(entries.map((m) => m.name)) && same(manifests.map(moduleOf)) ? kyma : undefined;
}

/** True once no instance has a delivery in flight, queued or waiting for a retry (checked for up to a second). */
const idle = () =>
  Promise.race([Promise.all(instances.map((i) => i.runner.broker.idle())).then(() => true), sleep(1_000, false)]);

/** What the race left: the converged Kyma, the user's edits and the KCP's refused writes over the whole run. */
interface Outcome {
  kyma: Kyma;
  edits: UserEdits;
  refused: Record<string, number>;
}
let outcome: Outcome | undefined;
const raced = (): Outcome => {
  if (!outcome) throw new Error('the race did not converge (see the first test)');
  return outcome;
};

describe('fault: concurrent updates to one Kyma and its Manifests (409 conflicts)', () => {
  it('converges after two instances of every function and a user raced on the Kyma, once both instances have no work left', async () => {
    await connectRuntime(world, KYMA, RUNTIME);
    const runtime = world.kymaRuntime.get(KYMA);
    const before = await kcpRequestCounters();
    await applyKyma(world, KYMA, { channel: 'regular', modules: modules(WANTED) });
    await eventually(
      'the runtime Kyma exists (the user edits it)',
      async () => Boolean(await runtime?.get(REMOTE_KYMA)),
      60_000,
    );
    const edits = await userEdits(world, KYMA, [modules(WANTED), modules(ALTERNATIVE)], EDIT_SECONDS);
    await runtime?.mergePatch(REMOTE_KYMA, { spec: { modules: modules(WANTED) } });
    const editsEnded = Date.now();
    await eventually(() => `Kyma ${KYMA} converged (last: ${JSON.stringify(lastSeen)})`, convergedKyma, 180_000);
    const convergedAfter = (Date.now() - editsEnded) / 1000;
    await eventually('both instances idle (no delivery in flight, queued or waiting for a retry)', idle, 180_000);
    const kyma = await eventually(
      () => `Kyma ${KYMA} still converged once all work is done (last: ${JSON.stringify(lastSeen)})`,
      convergedKyma,
      10_000,
    );
    outcome = { kyma, edits, refused: refusedWrites(before, await kcpRequestCounters()) };
    const answered = instances.map((i) => Object.fromEntries(i.conflicts));
    console.log(
      `[faults] converged ${convergedAfter.toFixed(1)} s, idle ${((Date.now() - editsEnded) / 1000).toFixed(1)} s after the edits; user: ${edits.specToggles} spec toggles, ${edits.kymaAnnotations} Kyma and ${edits.manifestAnnotations} Manifest annotations; KCP 409s ${JSON.stringify(outcome.refused)}; LCM_ERR_CONFLICT ${JSON.stringify(answered)}`,
    );
  }, 300_000);

  it('really conflicted: the KCP refused Kyma status and Manifest writes with 409, both instances answered LCM_ERR_CONFLICT', () => {
    const { refused, edits } = raced();
    expect(
      refused['apply kymas.operator.kyma-project.io/status'],
      'Kyma status writes the KCP refused with 409',
    ).toBeGreaterThan(0);
    const manifestRefusals = Object.entries(refused)
      .filter(([write]) => write.includes(' manifests.'))
      .reduce((sum, [, n]) => sum + n, 0);
    expect(
      manifestRefusals,
      'Manifest writes (spec or status) the KCP refused with 409 (none for a lone instance and no user)',
    ).toBeGreaterThan(0);
    for (const [i, instance] of instances.entries())
      expect(total(instance.conflicts), `LCM_ERR_CONFLICT answers of instance ${i + 1}`).toBeGreaterThan(0);
    expect(edits.manifestModules, 'the switched-in module got a Manifest during the edits').toContain('hotel');
  });

  it("ends with one Ready Manifest per wanted module and a status that matches the runtime Kyma's spec", async () => {
    const { kyma } = raced();
    const manifests = await manifestsOf(world, KYMA);
    expect(
      manifests
        .map((m) => [moduleOf(m), m.status?.state, m.spec?.version, Boolean(m.metadata.deletionTimestamp)])
        .sort(),
    ).toEqual(WANTED.map((m) => [m, 'Ready', '1.0.0', false]));
    expect(kyma.status?.specSource?.from).toBe('runtime');
    expect((await world.kymaRuntime.get(KYMA)?.get<Kyma>(REMOTE_KYMA))?.spec?.modules).toMatchObject(modules(WANTED));
    for (const entry of kyma.status?.modules ?? []) {
      const manifest = manifests.find((m) => moduleOf(m) === entry.name);
      expect(entry).toMatchObject({
        state: 'Ready',
        version: '1.0.0',
        channel: 'regular',
        template: { metadata: { name: `${entry.name}-1.0.0` } },
        manifest: { metadata: { name: manifest?.metadata.name } },
      });
    }
    await eventually('the runtime Kyma mirrors the status', async () => {
      const mirrored = await world.kymaRuntime.get(KYMA)?.get<Kyma>(REMOTE_KYMA);
      return (
        mirrored?.status?.state === 'Ready' &&
        JSON.stringify(sorted((mirrored.status.modules ?? []).map((m) => m.name))) === JSON.stringify(WANTED)
      );
    });
  });

  it('has exactly the wanted modules on the runtime: the switched-out module left nothing behind', async () => {
    raced();
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    for (const name of WANTED)
      expect((await deployment(`${name}-manager`))?.status?.availableReplicas, `${name}-manager on the runtime`).toBe(
        1,
      );
    expect(await moduleObjectsOn(runtime, 'hotel'), 'objects of the switched-out module on the runtime').toEqual([]);
  });

  it("keeps the user's own edits, and nothing moves once it has converged", async () => {
    const { kyma, edits } = raced();
    expect(kyma.metadata.annotations?.[USER_ANNOTATION], "the user's last Kyma edit is kept").toBe(edits.lastKymaEdit);
    const foxtrot = (await manifestsOf(world, KYMA)).find((m) => moduleOf(m) === 'foxtrot');
    expect(
      foxtrot?.metadata.annotations?.[USER_ANNOTATION],
      "the user's last edit of a Manifest that stayed is kept",
    ).toBe(edits.lastManifestEdit.get(foxtrot?.metadata.name ?? ''));
    const settled = await chainState(world, KYMA);
    await sleep(5_000);
    expect(await chainState(world, KYMA), 'the two instances do not keep rewriting each other').toEqual(settled);
  });
});
