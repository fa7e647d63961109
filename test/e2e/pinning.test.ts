// Version pinning and the explicit downgrade (issue 25 part 2, ADR 38) through the whole chain on real clusters:
// the runtime Kyma's spec.modules[].version pins, allowDowngradeTo lets exactly one downgrade through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma, KymaModule, ModuleStatus } from '../../shared/core/kyma.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { crRef, deploymentOf, moduleCrOn, publishModule, userCr } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  eventually,
  justAfterTheMinute,
  kymaInState,
  manifestsOf,
  REMOTE_KYMA,
  resyncTicks,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
let runtime: KubeClient;
const MODULE = 'pinmod';
const PEER = 'pinpeer';
const KYMA = 'pin-a';
const WITNESS = 'pin-w';

const entryOf = (k: Kyma | undefined, name = MODULE): ModuleStatus | undefined =>
  k?.status?.modules?.find((m) => m.name === name);
const imageOn = async (client: KubeClient) =>
  (await deploymentOf(client, MODULE))?.spec?.template?.spec?.containers?.[0]?.image ?? '';
const configMap = (client: KubeClient, name: string) =>
  client.get<{ kind?: string; data?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: 'kyma-system',
    name,
  });
const manifestVersion = async (kyma: string) =>
  (await manifestsOf(world, kyma)).find((m) => m.metadata.labels?.['operator.kyma-project.io/module-name'] === MODULE)
    ?.spec?.version;
const withWitness = (module: KymaModule) => applyKyma(world, WITNESS, { channel: 'regular', modules: [module] });
const withModules = (module: KymaModule, peer: Partial<KymaModule> = {}) =>
  applyKyma(world, KYMA, { channel: 'regular', modules: [module, { name: PEER, ...peer }] });
/** Ready with the module installed at `version` (status, Manifest and the runtime's objects agree). */
async function readyAt(
  kyma: string,
  version: string,
  also: (e: ModuleStatus | undefined) => boolean = () => true,
): Promise<Kyma> {
  const ready = await kymaInState(
    world,
    kyma,
    'Ready',
    (k) => entryOf(k)?.version === version && entryOf(k)?.state === 'Ready' && also(entryOf(k)),
  );
  expect(await manifestVersion(kyma)).toBe(version);
  return ready;
}

beforeAll(async () => {
  world = await startWorld();
  const [first] = world.runtimes;
  if (!first) throw new Error('no runtime');
  runtime = first;
  await publishModule(world, MODULE, ['1.0.0']);
  // Only 2.0.0 ships ConfigMap pinmod-added: a downgrade from 2.0.0 must prune it. In no channel yet.
  await publishSampleModule(world.registry, world.kcp, {
    name: MODULE,
    version: '2.0.0',
    namespace: KCP_NAMESPACE,
    extraConfigMap: `${MODULE}-added`,
  });
  await publishModule(world, PEER, ['1.0.0']);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('version pinning and the explicit downgrade', () => {
  it('pins a module: a channel bump that moves other Kymas does not move the pinned one', async () => {
    await connectRuntime(world, KYMA, 0);
    await withModules({ name: MODULE });
    await readyAt(KYMA, '1.0.0', () => true).then((k) => expect(entryOf(k, PEER)?.state).toBe('Ready'));
    // The runtime's Kyma CRD (synced from the KCP) knows the new fields before the user writes them.
    await eventually('the runtime Kyma CRD has spec.modules[].version', async () => {
      const crd = await runtime.get<{
        kind?: string;
        spec: {
          versions: {
            schema: {
              openAPIV3Schema: {
                properties: { spec: { properties: { modules: { items: { properties: Record<string, unknown> } } } } };
              };
            };
          }[];
        };
      }>({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'kymas.operator.kyma-project.io',
      });
      const fields =
        crd?.spec.versions[0]?.schema.openAPIV3Schema.properties.spec.properties.modules.items.properties ?? {};
      return 'version' in fields && 'allowDowngradeTo' in fields;
    });
    await withModules({ name: MODULE, version: '1.0.0' });
    await readyAt(KYMA, '1.0.0', (e) => e?.resolution?.pinned === true && e.channel === 'none');

    await connectRuntime(world, WITNESS, 1);
    await applyKyma(world, WITNESS, { channel: 'regular', modules: [{ name: MODULE }] });
    await readyAt(WITNESS, '1.0.0');
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '2.0.0' }]);
    await readyAt(WITNESS, '2.0.0');
    // A runtime edit after the bump (the peer's policy) makes resolution run for the pinned Kyma again: it stays.
    await withModules({ name: MODULE, version: '1.0.0' }, { customResourcePolicy: 'Ignore' });
    const stayed = await kymaInState(
      world,
      KYMA,
      'Ready',
      (k) => entryOf(k, PEER)?.resolution?.customResourcePolicy === 'Ignore',
    );
    expect(entryOf(stayed)).toMatchObject({
      version: '1.0.0',
      channel: 'none',
      template: { metadata: { name: `${MODULE}-1.0.0` } },
      resolution: { state: 'Resolved', version: '1.0.0', pinned: true },
    });
    expect(await manifestVersion(KYMA)).toBe('1.0.0');
    expect(await imageOn(runtime)).toMatch(/pinmod-manager:1\.0\.0$/);
    expect(await configMap(runtime, `${MODULE}-added`)).toBeUndefined();
    expect(
      (await runtime.get<Kyma>(REMOTE_KYMA))?.status?.modules?.find((m) => m.name === MODULE)?.resolution?.pinned,
    ).toBe(true);
  });

  it('follows the channel again once unpinned', async () => {
    await withModules({ name: MODULE });
    const kyma = await readyAt(KYMA, '2.0.0', (e) => e?.channel === 'regular');
    expect(entryOf(kyma)?.resolution?.pinned).toBeUndefined();
    expect(await imageOn(runtime)).toMatch(/pinmod-manager:2\.0\.0$/);
    expect((await configMap(runtime, `${MODULE}-added`))?.data).toEqual({ only: '2.0.0' });
  });

  it('downgrades to exactly the version allowDowngradeTo names: prunes what 2.0.0 added, applies 1.0.0, keeps user CRs, records an Event', async () => {
    await userCr(runtime, MODULE, 'users-own', 'kyma-system');
    const defaultCr = entryOf(await kymaInState(world, KYMA, 'Ready'))?.resource?.metadata.name ?? '';
    expect(defaultCr).not.toBe('');
    await withModules({ name: MODULE, version: '1.0.0', allowDowngradeTo: '1.0.0' });
    const kyma = await readyAt(KYMA, '1.0.0', (e) => e?.resolution?.pinned === true);
    expect(entryOf(kyma)).toMatchObject({ channel: 'none', template: { metadata: { name: `${MODULE}-1.0.0` } } });
    expect(await imageOn(runtime)).toMatch(/pinmod-manager:1\.0\.0$/);
    expect((await configMap(runtime, `${MODULE}-config`))?.data).toEqual({ version: '1.0.0' });
    await eventually(
      'ConfigMap pinmod-added (only 2.0.0 had it) pruned',
      async () => (await configMap(runtime, `${MODULE}-added`)) === undefined,
    );
    expect(await moduleCrOn(runtime, crRef(MODULE, 'users-own', 'kyma-system'))).toBeDefined();
    expect(await moduleCrOn(runtime, crRef(MODULE, defaultCr, 'kyma-system'))).toBeDefined();
    const events = (
      await world.kcp.list<{
        kind?: string;
        reason?: string;
        message?: string;
        involvedObject?: { kind?: string; name?: string };
      }>('v1', 'Event', { namespace: KCP_NAMESPACE })
    ).items.filter(
      (e) => e.reason === 'ModuleDowngrade' && e.involvedObject?.kind === 'Kyma' && e.involvedObject.name === KYMA,
    );
    expect(events.map((e) => e.message)).toEqual([
      expect.stringContaining(`module ${MODULE}: downgrade from 2.0.0 to 1.0.0`),
    ]);
  });

  it("still refuses an implicit downgrade with upstream's message, keeping the installed version", async () => {
    await withModules({ name: MODULE });
    await readyAt(KYMA, '2.0.0');
    await withModules({ name: MODULE, version: '1.0.0' });
    const refused = await kymaInState(world, KYMA, 'Warning', (k) => entryOf(k)?.state === 'Warning');
    expect(entryOf(refused)).toMatchObject({
      version: '2.0.0',
      template: { metadata: { name: `${MODULE}-2.0.0` } },
      message:
        'ignore channel skew (from regular to none), as a higher version (2.0.0) of the module was previously installed',
    });
    expect(await manifestVersion(KYMA)).toBe('2.0.0');
    expect(await imageOn(runtime)).toMatch(/pinmod-manager:2\.0\.0$/);
  });

  it('keeps the installed version while the pinned version has no template, and installs it once it is published', async () => {
    await withWitness({ name: MODULE, version: '3.0.0' });
    const waiting = await kymaInState(world, WITNESS, 'Warning', (k) => entryOf(k)?.state === 'Warning');
    expect(entryOf(waiting)).toMatchObject({
      version: '2.0.0',
      message: `ModuleTemplate ${MODULE}-3.0.0 not found for module ${MODULE} pinned to version 3.0.0`,
    });
    expect(await manifestVersion(WITNESS)).toBe('2.0.0');
    await justAfterTheMinute(); // no resync tick: the template's own event brings the Kyma
    const ticks = resyncTicks(world);
    await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '3.0.0', namespace: KCP_NAMESPACE });
    await readyAt(WITNESS, '3.0.0', (e) => e?.resolution?.pinned === true);
    expect(resyncTicks(world)).toBe(ticks);
  });

  it('refuses version together with a module channel (upstream wording) and a version that is no semver at admission', async () => {
    const witness = world.kymaRuntime.get(WITNESS);
    if (!witness) throw new Error('no witness runtime');
    await withWitness({ name: MODULE, version: '3.0.0', channel: 'fast' });
    const kyma = await kymaInState(world, WITNESS, 'Error', (k) => entryOf(k)?.state === 'Error');
    expect(entryOf(kyma)?.message).toBe(
      `invalid configuration in Kyma spec.modules for module ${MODULE}: Version and channel are mutually exclusive options`,
    );
    expect(await manifestVersion(WITNESS)).toBe('3.0.0');
    await expect(
      witness.mergePatch(REMOTE_KYMA, { spec: { modules: [{ name: MODULE, version: 'v2' }] } }),
    ).rejects.toMatchObject({ status: 422 });
    expect((await witness.get<Kyma>(REMOTE_KYMA))?.spec?.modules?.[0]?.channel).toBe('fast');
  });
});
