import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../shared/core/templates.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { checkedAgain, kymaKey } from './handled.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  stopWorld,
  type World,
} from './world.ts';
import { remote, startRuntimeSideWorld } from './runtime-side-world.ts';

let world: World;

beforeAll(async () => {
  world = await startRuntimeSideWorld();
});

afterAll(async () => {
  await stopWorld(world);
});

/** A Kyma event (Ready Kymas are otherwise re-checked only once per drift period). */
const touch = () =>
  world.kcp.mergePatch(
    { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: 'rt-a' },
    { metadata: { annotations: { 'e2e/touched': String(Date.now()) } } },
  );
const conditions = (k: Kyma | undefined) =>
  Object.fromEntries((k?.status?.conditions ?? []).map((c) => [c.type, c.status]));

describe('runtime side: CRD sync and module catalog sync', () => {
  it('syncs the lifecycle CRDs and the visible catalog, follows visibility, resets runtime edits, leaves user templates alone', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'rt-a', 0);
    await applyKyma(world, 'rt-a', { channel: 'regular', modules: [{ name: 'mike' }] });
    const kyma = await kymaInState(world, 'rt-a', 'Ready');
    expect(conditions(kyma)).toEqual({ CRDsSync: 'True', Modules: 'True', ModuleCatalog: 'True' });
    for (const plural of ['kymas', 'moduletemplates', 'modulereleasemetas']) {
      const crd = await runtime.get<{
        kind?: string;
        metadata?: { name?: string; labels?: Record<string, string> };
        spec?: { conversion?: { strategy?: string } };
      }>({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: `${plural}.operator.kyma-project.io`,
      });
      expect(crd?.spec?.conversion?.strategy).toBe('None');
      expect(crd?.metadata?.labels?.['operator.kyma-project.io/managed-by']).toBe('kyma');
    }
    expect(
      (await runtime.get<ModuleTemplate>(remote('ModuleTemplate', 'mike-1.0.0')))?.metadata.labels?.[
        'operator.kyma-project.io/managed-by'
      ],
    ).toBe('kyma');
    expect(await runtime.get(remote('ModuleTemplate', 'mike-2.0.0'))).toBeUndefined();
    expect((await runtime.get<ModuleReleaseMeta>(remote('ModuleReleaseMeta', 'mike')))?.spec?.channels).toEqual([
      { channel: 'regular', version: '1.0.0' },
    ]);

    await runtime.create({
      apiVersion: API_VERSION,
      kind: 'ModuleTemplate',
      metadata: { name: 'users-own-1.0.0', namespace: 'kyma-system' },
      spec: { moduleName: 'users-own', version: '1.0.0' },
    });
    await runtime.mergePatch(remote('ModuleTemplate', 'mike-1.0.0'), { spec: { version: '9.9.9' } });
    await applyKyma(
      world,
      'rt-a',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'operator.kyma-project.io/beta': 'true' },
    );
    await eventually(
      'beta template and channel appear for a beta Kyma',
      async () =>
        (await runtime.get<ModuleReleaseMeta>(remote('ModuleReleaseMeta', 'mike')))?.spec?.channels?.length === 2 &&
        Boolean(await runtime.get(remote('ModuleTemplate', 'mike-2.0.0'))),
    );
    await eventually(
      'runtime-side edit of a copy is reset',
      async () =>
        (await runtime.get<ModuleTemplate>(remote('ModuleTemplate', 'mike-1.0.0')))?.spec?.version === '1.0.0',
    );

    await applyKyma(
      world,
      'rt-a',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'operator.kyma-project.io/beta': 'false' },
    );
    await eventually(
      'beta copy removed again',
      async () => (await runtime.get(remote('ModuleTemplate', 'mike-2.0.0'))) === undefined,
    );

    // An internal module is left out of the catalog until the Kyma opts in with the internal label.
    await publishSampleModule(world.registry, world.kcp, {
      name: 'indigo',
      version: '1.0.0',
      namespace: KCP_NAMESPACE,
      internal: true,
    });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'indigo', [{ channel: 'regular', version: '1.0.0' }]);
    await applyKyma(
      world,
      'rt-a',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'operator.kyma-project.io/beta': 'false', 'e2e/step': 'internal-off' },
    );
    await kymaInState(world, 'rt-a', 'Ready');
    // A full check of the Kyma handled: aggregate-status pushed the catalog again, without the internal module.
    await checkedAgain(world, kymaKey('rt-a'));
    expect(await runtime.get(remote('ModuleReleaseMeta', 'indigo'))).toBeUndefined();
    expect(await runtime.get(remote('ModuleTemplate', 'indigo-1.0.0'))).toBeUndefined();
    await applyKyma(
      world,
      'rt-a',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'operator.kyma-project.io/beta': 'false', 'operator.kyma-project.io/internal': 'true' },
    );
    await eventually(
      'internal module in the catalog of an internal Kyma',
      async () =>
        Boolean(await runtime.get(remote('ModuleTemplate', 'indigo-1.0.0'))) &&
        Boolean(await runtime.get(remote('ModuleReleaseMeta', 'indigo'))),
    );
    await applyKyma(
      world,
      'rt-a',
      { channel: 'regular', modules: [{ name: 'mike' }] },
      { 'operator.kyma-project.io/beta': 'false', 'operator.kyma-project.io/internal': 'false' },
    );
    await eventually(
      'internal copies removed again',
      async () =>
        !(await runtime.get(remote('ModuleTemplate', 'indigo-1.0.0'))) &&
        !(await runtime.get(remote('ModuleReleaseMeta', 'indigo'))),
    );
    expect(await runtime.get(remote('ModuleTemplate', 'users-own-1.0.0'))).toBeDefined();

    await publishSampleModule(world.registry, world.kcp, {
      name: 'sierra',
      version: '1.0.0',
      namespace: KCP_NAMESPACE,
    });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'sierra', [{ channel: 'regular', version: '1.0.0' }]);
    await touch();
    await eventually(
      'new module in the catalog',
      async () =>
        Boolean(await runtime.get(remote('ModuleReleaseMeta', 'sierra'))) &&
        Boolean(await runtime.get(remote('ModuleTemplate', 'sierra-1.0.0'))),
    );
    await world.kcp.delete({
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      namespace: KCP_NAMESPACE,
      name: 'sierra',
    });
    await touch();
    await eventually(
      'MRM deleted in the KCP → its copy and its template copy removed',
      async () =>
        !(await runtime.get(remote('ModuleReleaseMeta', 'sierra'))) &&
        !(await runtime.get(remote('ModuleTemplate', 'sierra-1.0.0'))),
    );
    expect(
      await world.kcp.get({
        apiVersion: API_VERSION,
        kind: 'ModuleTemplate',
        namespace: KCP_NAMESPACE,
        name: 'sierra-1.0.0',
      }),
    ).toBeDefined();
  });

  it('reports Error naming the runtime when its credentials stop working, and recovers when the Secret is fixed (client evicted)', async () => {
    const [good] = world.runtimeKubeconfigs;
    const config = parse(good ?? '') as { users: { name: string; user: Record<string, string> }[] };
    const broken = stringify({
      ...config,
      users: config.users.map((u) => ({ name: u.name, user: { token: 'revoked-token' } })),
    });
    await world.kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'rt-a', namespace: KCP_NAMESPACE, labels: { 'operator.kyma-project.io/kyma-name': 'rt-a' } },
        data: { config: Buffer.from(broken).toString('base64') },
      },
      'e2e-user',
    );
    await touch();
    const failed = await kymaInState(world, 'rt-a', 'Error');
    expect(failed.status?.lastOperation?.operation).toMatch(/^runtime of Kyma rt-a unreachable: .*401/);
    expect(failed.status?.modules?.[0]).toMatchObject({ state: 'Error' });
    expect(JSON.stringify(failed.status)).not.toContain('revoked-token');
    await connectRuntime(world, 'rt-a', 0);
    await touch();
    await kymaInState(world, 'rt-a', 'Ready');
    expect((await getKyma(world, 'rt-a'))?.status?.modules?.[0]?.state).toBe('Ready');
    await deleteKyma(world, 'rt-a');
    await kymaGone(world, 'rt-a');
    const [runtime] = world.runtimes;
    expect(await runtime?.get(remote('ModuleTemplate', 'mike-1.0.0'))).toBeUndefined();
    expect(await runtime?.get(remote('ModuleTemplate', 'users-own-1.0.0'))).toBeDefined();
  });
});
