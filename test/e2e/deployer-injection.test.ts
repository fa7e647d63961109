// Upstream's deployer-module Secret injection (`operator.kyma-project.io/inject-data-from-kcp`, ADR 40): with
// `deployer` restricted, a Secret of the deployer's raw manifest annotated so gets the data of the KCP Secret of the
// same name, which must be labelled `module-name: deployer`. Without it the module is Error naming the Secret and
// nothing of the module reaches the runtime; with it the runtime Secret holds exactly the KCP data (the module's
// stringData gone). Another module's annotated Secret is applied as it is. The data never shows in the Manifest, the
// Kyma, Events or logs.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { ANNOTATION, API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { templateName } from '../../shared/core/templates.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';

const KYMA = 'deployer-inject';
const RUNTIME = 0;
const ACCOUNT = { 'kyma-project.io/global-account-id': 'ga-inject' };
// A version of its own: runtime-side.test.ts publishes deployer 1.0.0 on the same KCP and registry.
const VERSION = '3.4.0';
const OTHER = 'kestrel';
const INJECTED = 'deployer-registry';
const PLAIN = 'deployer-plain';
const OTHERS = 'kestrel-registry';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const KCP_CONFIG = '{"auths":{"kcp-only.example.net":{"auth":"cm9ib3Q6a2NwLXNlY3JldC12YWx1ZQ=="}}}';
const KCP_DATA = { '.dockerconfigjson': b64(KCP_CONFIG), token: b64('kcp-token-value') };
const MODULE_CONFIG = '{"auths":{"module-default.example.net":{}}}';
/** What the module ships: its own data, and stringData that would override it. */
const shipped = (name: string, annotated: boolean) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/dockerconfigjson',
  metadata: {
    name,
    namespace: 'kyma-system',
    ...(annotated ? { annotations: { [ANNOTATION.injectDataFromKcp]: 'true' } } : {}),
  },
  data: { '.dockerconfigjson': b64('{"auths":{}}') },
  stringData: { '.dockerconfigjson': MODULE_CONFIG, extra: 'module-extra' },
});
const kcpSecret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name });
const kcpSecretLabelled = (name: string, module: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: KCP_NAMESPACE, labels: { [LABEL.moduleName]: module } },
  data: KCP_DATA,
});
const onRuntime = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', namespace: 'kyma-system', name });
const mrm = { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: 'deployer' };
/** Text that would give the KCP data away, in any form. */
const SECRETS = [KCP_CONFIG, KCP_DATA['.dockerconfigjson'], 'kcp-secret-value', 'kcp-token-value', KCP_DATA.token];
let world: World;

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_RESTRICTED_MODULES: 'deployer' });
  for (const name of [INJECTED, OTHERS]) await world.kcp.delete(kcpSecret(name)).catch(() => undefined);
  await publishModule(world, 'deployer', [VERSION], { extraObjects: [shipped(INJECTED, true), shipped(PLAIN, false)] });
  // A restricted module is installable only where its MRM's kymaSelector matches the Kyma (and nothing else of an
  // earlier selector may stay).
  await world.kcp.mergePatch(mrm, { spec: { kymaSelector: { matchLabels: ACCOUNT, matchExpressions: null } } });
  await publishModule(world, OTHER, ['1.0.0'], { extraObjects: [shipped(OTHERS, true)] });
  // Even a KCP Secret of that name labelled as the deployer's is no source for another module.
  await world.kcp.apply(kcpSecretLabelled(OTHERS, 'deployer'), 'e2e-user');
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  const runtime = world?.runtimes[RUNTIME];
  if (runtime) {
    for (const module of ['deployer', OTHER]) await removeModuleLeftovers(runtime, module);
    for (const name of [INJECTED, PLAIN, OTHERS]) await runtime.delete(onRuntime(name)).catch(() => undefined);
  }
  if (world) {
    for (const name of [INJECTED, OTHERS]) await world.kcp.delete(kcpSecret(name)).catch(() => undefined);
    // Nothing of this file's deployer stays on the shared KCP (runtime-side.test.ts publishes its own, without selector).
    await world.kcp.delete(mrm).catch(() => undefined);
    await world.kcp
      .delete({
        apiVersion: API_VERSION,
        kind: 'ModuleTemplate',
        namespace: KCP_NAMESPACE,
        name: templateName('deployer', VERSION),
      })
      .catch(() => undefined);
  }
  await world?.runner.stop();
});

const deployerManifest = async () =>
  (await manifestsOf(world, KYMA)).find((m) => m.metadata.labels?.[LABEL.moduleName] === 'deployer');
const moduleOf = (k: Kyma | undefined, name: string) => k?.status?.modules?.find((m) => m.name === name);
const runtimeSecret = async (name: string) =>
  world.runtimes[RUNTIME]?.get<{ metadata?: { name?: string }; data?: Record<string, string>; stringData?: unknown }>(
    onRuntime(name),
  );
const problem = (what: string) =>
  `rendering the module failed: Secret kyma-system/${INJECTED} asks for its data from the KCP (${ANNOTATION.injectDataFromKcp}), but ${what}`;

/** The deployer's Manifest once `done`. A KCP Secret's change is no event for it: a resync every few seconds makes
 * apply-remote look again (a Manifest not Ready is due at every tick). */
async function deployerWhen(what: string, done: (m: Manifest) => boolean): Promise<Manifest> {
  let seen: Manifest | undefined;
  let resynced = Date.now();
  return eventually(
    () => `deployer Manifest ${what} (last: ${JSON.stringify(seen?.status?.lastOperation)})`,
    async () => {
      seen = await deployerManifest();
      if (seen && done(seen)) return seen;
      if (Date.now() - resynced > 3000) {
        resynced = Date.now();
        await world.runner.resync();
      }
      return undefined;
    },
  );
}
const deployerError = (operation: string) =>
  deployerWhen(
    `Error with "${operation}"`,
    (m) => m.status?.state === 'Error' && m.status.lastOperation?.operation === operation,
  );

/** Nothing the test read or the functions logged carries the KCP Secret's data. */
function expectNoSecretIn(what: string, text: string): void {
  for (const s of SECRETS) expect(text.includes(s), `${what} holds the KCP Secret's data`).toBe(false);
}

describe('deployer Secrets with inject-data-from-kcp (deployer restricted)', () => {
  it("without the KCP Secret, or with one not labelled as the deployer's: Error naming the Secret, nothing of the module on the runtime", async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'deployer' }, { name: OTHER }] }, ACCOUNT);
    const missing = await deployerError(problem(`the KCP has no Secret ${KCP_NAMESPACE}/${INJECTED}`));
    expect(missing.status?.synced ?? []).toEqual([]);
    const kyma = await kymaInState(
      world,
      KYMA,
      'Error',
      (k) => moduleOf(k, OTHER)?.state === 'Ready' && moduleOf(k, 'deployer')?.state === 'Error',
    );
    expect(moduleOf(kyma, 'deployer')?.message).toContain(INJECTED);
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    expect(await runtimeSecret(INJECTED)).toBeUndefined();
    expect(await runtimeSecret(PLAIN)).toBeUndefined();
    expect(
      await runtime.get({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'kyma-system',
        name: 'deployer-manager',
      }),
    ).toBeUndefined();

    // Another module's annotated Secret is applied as it is: the module's data with its stringData merged in.
    const others = await runtimeSecret(OTHERS);
    expect(others?.data).toEqual({ '.dockerconfigjson': b64(MODULE_CONFIG), extra: b64('module-extra') });

    await world.kcp.apply(kcpSecretLabelled(INJECTED, 'not-deployer'), 'e2e-user');
    await deployerError(
      problem(
        `the KCP Secret ${KCP_NAMESPACE}/${INJECTED} is not labelled ${LABEL.moduleName}: deployer (it is labelled "not-deployer")`,
      ),
    );
    expect(await runtimeSecret(INJECTED)).toBeUndefined();
  });

  it("with the labelled KCP Secret: the runtime Secret holds exactly the KCP data, the module's stringData gone; other Secrets as shipped", async () => {
    await world.kcp.mergePatch(kcpSecret(INJECTED), { metadata: { labels: { [LABEL.moduleName]: 'deployer' } } });
    await deployerWhen('Ready', (m) => m.status?.state === 'Ready');
    const kyma = await kymaInState(world, KYMA, 'Ready', (k) => moduleOf(k, 'deployer')?.state === 'Ready');
    const injected = await runtimeSecret(INJECTED);
    expect(injected?.data).toEqual(KCP_DATA);
    expect(injected).not.toHaveProperty('stringData');
    expect((await runtimeSecret(PLAIN))?.data).toEqual({
      '.dockerconfigjson': b64(MODULE_CONFIG),
      extra: b64('module-extra'),
    });
    expect((await runtimeSecret(OTHERS))?.data).toEqual({
      '.dockerconfigjson': b64(MODULE_CONFIG),
      extra: b64('module-extra'),
    });

    const manifests = await manifestsOf(world, KYMA);
    expect((await deployerManifest())?.status?.synced?.some((r) => r.kind === 'Secret' && r.name === INJECTED)).toBe(
      true,
    );
    expectNoSecretIn('the Manifests', JSON.stringify(manifests));
    expectNoSecretIn('the Kyma', JSON.stringify([kyma, await getKyma(world, KYMA)]));
    const events = await world.kcp.list('v1', 'Event', { namespace: KCP_NAMESPACE });
    expect(JSON.stringify(events.items)).toContain(INJECTED);
    expectNoSecretIn('the Events', JSON.stringify(events.items));
    expectNoSecretIn('the logs', await readFile(world.logFile, 'utf8'));
  });
});
