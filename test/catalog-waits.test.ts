// aggregate-status pushes a Kyma's catalog once resolve-template has created the runtime Kyma and its namespace
// (ADR 78): before, the lifecycle CRDs only — the namespace neither read nor created, no copies, the catalog not
// evaluated;
// after, the copies without a read of the namespace; a namespace gone meanwhile is created by the push that met 404.
// A runtime no catalog was pushed to yet is not listed (ADR 96). The resync's drift checks list the copies every other
// drift period (ADR 90). Real KCP and runtime API servers, the requests counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { syncRuntime } from '../functions/aggregate-status/runtime-sync.ts';
import type { Kyma, SpecSource } from '../shared/core/kyma.ts';
import { RUNTIME_NAMESPACE_ANNOTATION } from '../shared/core/runtime-scope.ts';
import { API_VERSION, LABEL } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { RuntimeClients } from '../shared/kube/runtime-clients.ts';
import { SyncMemo } from '../shared/kube/sync-memo.ts';
import { installCrds } from '../local/controlplane/crds.ts';
import { clusters } from './clusters.ts';

const id = Date.now().toString(36);
const namespace = `catalog-waits-${id}`;
const config = { runtimeImagePullSecret: undefined, restrictedModules: [], driftPeriodMinutes: 5 };
let kcp: KubeClient;
let runtime: KubeClient;
let runtimes: RuntimeClients;

/** Kyma `name` whose runtime objects go to namespace `<name>-<id>` on the first runtime API server. */
const runtimeNamespace = (name: string) => `${name}-${id}`;
const NAMES = ['fresh', 'gone', 'drifting', 'stale'];
const kyma = (name: string, from?: SpecSource['from']): Kyma => ({
  apiVersion: API_VERSION,
  kind: 'Kyma',
  metadata: { name, namespace },
  spec: { channel: 'regular' },
  ...(from ? { status: { specSource: { from, channel: 'regular' } } } : {}),
});
/** A Kyma whose catalog was pushed before (its ModuleCatalog condition, ours or upstream's). */
const pushedBefore = (name: string): Kyma => {
  const k = kyma(name, 'runtime');
  const catalog = { type: 'ModuleCatalog', status: 'True' as const, reason: 'Ready', message: 'synced' };
  return { ...k, status: { ...k.status, conditions: [catalog] } };
};
const sync = (k: Kyma) =>
  syncRuntime(kcp, runtimes, k, new SyncMemo(60_000), false, config, k.status?.specSource?.from === 'kcp');

/** What was sent to the runtime since counting restarted, `verb resource` → count (the CRDs, shared, left out). */
function sentToRuntime(): Record<string, number> {
  const rows = requestTally().filter((r) => r.server === runtime.server && !r.resource.startsWith('customresource'));
  return Object.fromEntries(rows.map((r) => [`${r.verb} ${r.resource}`, r.count]));
}
const copies = async (name: string) =>
  (await runtime.list(API_VERSION, 'ModuleTemplate', { namespace: runtimeNamespace(name) })).items.map(
    (t) => t.metadata?.name,
  );

beforeAll(async () => {
  await installCrds(clusters().kcp);
  kcp = await KubeClient.from(clusters().kcp);
  const [first] = clusters().runtimes;
  if (!first) throw new Error('no runtime');
  runtime = await KubeClient.from(first);
  // Established before the first call: a catalog kind the runtime's discovery does not list yet takes another path.
  await installCrds(first);
  runtimes = new RuntimeClients(kcp);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const kubeconfig = Buffer.from(inject('controlPlane').runtimes[0] as string).toString('base64');
  for (const name of NAMES)
    await kcp.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `kubeconfig-${name}`,
        namespace,
        labels: { [LABEL.kymaName]: name },
        annotations: { [RUNTIME_NAMESPACE_ANNOTATION]: runtimeNamespace(name) },
      },
      data: { config: kubeconfig },
    });
  await kcp.create({
    apiVersion: API_VERSION,
    kind: 'ModuleTemplate',
    metadata: { name: 'waits-1.0.0', namespace, labels: { [LABEL.moduleName]: 'waits' } },
    spec: { moduleName: 'waits', version: '1.0.0', data: { apiVersion: 'x.io/v1', kind: 'Waits', metadata: {} } },
  });
  await kcp.create({
    apiVersion: API_VERSION,
    kind: 'ModuleReleaseMeta',
    metadata: { name: 'waits', namespace },
    spec: {
      moduleName: 'waits',
      ocmComponentName: 'kyma-project.io/module/waits',
      channels: [{ channel: 'regular', version: '1.0.0' }],
    },
  });
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await kcp?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace }).catch(() => false);
  for (const name of NAMES)
    await runtime?.delete({ apiVersion: 'v1', kind: 'Namespace', name: runtimeNamespace(name) }).catch(() => false);
});

describe("a Kyma's catalog waits for its runtime Kyma (ADR 78)", () => {
  it('not resolved yet, or resolved from the KCP spec: the CRDs only; the namespace neither read nor created', async () => {
    for (const from of [undefined, 'kcp'] as const) {
      const side = await sync(kyma('fresh', from));
      // The catalog not evaluated: its condition stays as it was (Unknown on a new Kyma, True on one taken over).
      expect(side.sync).toEqual({ crds: { ok: true, message: '3 CRDs synced to the runtime' } });
      expect(side.runtime, 'no runtime Kyma to mirror to').toBeUndefined();
    }
    expect(Object.keys(sentToRuntime()).filter((k) => /namespaces|moduletemplates|modulereleasemetas/.test(k))).toEqual(
      [],
    );
    expect(await runtime.get({ apiVersion: 'v1', kind: 'Namespace', name: runtimeNamespace('fresh') })).toBeUndefined();
  });

  it('resolved from the runtime Kyma (its namespace created with it): the copies pushed, the namespace not read', async () => {
    await runtime.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: runtimeNamespace('fresh') } }, 'test');
    countRequests(true);
    const side = await sync(kyma('fresh', 'runtime'));
    expect(side.sync).toMatchObject({
      catalog: { ok: true, message: '1 ModuleTemplates and 1 ModuleReleaseMetas synced' },
    });
    expect(side.runtime).toBeDefined();
    const sent = sentToRuntime();
    expect(sent).toMatchObject({
      'apply moduletemplates.operator.kyma-project.io': 1,
      'apply modulereleasemetas.operator.kyma-project.io': 1,
    });
    expect(Object.keys(sent).filter((k) => k.endsWith(' namespaces') || k.startsWith('list module'))).toEqual([]);
    expect(await copies('fresh')).toEqual(['waits-1.0.0']);
  });

  it('a copy of ours left on a runtime never pushed to: kept by the first push (nothing listed), removed by the next', async () => {
    const stale = runtimeNamespace('stale');
    await runtime.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: stale } }, 'test');
    const left = { name: 'gone-1.0.0', namespace: stale, labels: { [LABEL.managedBy]: 'kyma' } };
    const spec = { moduleName: 'gone', version: '1.0.0', data: { apiVersion: 'x.io/v1', kind: 'Gone', metadata: {} } };
    await runtime.apply({ apiVersion: API_VERSION, kind: 'ModuleTemplate', metadata: left, spec }, 'catalog-sync');
    countRequests(true);
    await sync(kyma('stale', 'runtime'));
    expect(await copies('stale')).toEqual(['gone-1.0.0', 'waits-1.0.0']);
    await syncRuntime(kcp, runtimes, pushedBefore('stale'), new SyncMemo(60_000), 'any', config);
    expect(await copies('stale')).toEqual(['waits-1.0.0']);
  });

  it('a runtime namespace gone meanwhile: the push meets 404, creates it and pushes again', async () => {
    const side = await sync(kyma('gone', 'runtime'));
    expect(side.sync).toMatchObject({ catalog: { ok: true } });
    expect(sentToRuntime()).toMatchObject({ 'apply namespaces': 1 });
    expect(await copies('gone')).toEqual(['waits-1.0.0']);
  });
});

describe("the resync's drift checks list the catalog copies every other drift period (ADR 90)", () => {
  const PERIOD_MS = 2_000;
  const every = { ...config, driftPeriodMinutes: PERIOD_MS / 60_000 };
  const listed = () =>
    Object.entries(sentToRuntime())
      .filter(([k]) => k.startsWith('list module'))
      .reduce((sum, [, n]) => sum + n, 0);
  const copyRef = { apiVersion: API_VERSION, kind: 'ModuleTemplate', name: 'waits-1.0.0' };

  it('a copy deleted on the runtime: left by a drift check soon after the push, put back 1.5 periods on', async () => {
    await runtime.apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: runtimeNamespace('drifting') } },
      'test',
    );
    const memo = new SyncMemo(PERIOD_MS);
    const drifting = pushedBefore('drifting');
    await syncRuntime(kcp, runtimes, drifting, memo, false, every);
    await runtime.delete({ ...copyRef, namespace: runtimeNamespace('drifting') });
    countRequests(true);
    await sleep(PERIOD_MS); // past the memo's TTL, within 1.5 drift periods
    const soon = await syncRuntime(kcp, runtimes, drifting, memo, 'any', every);
    expect(soon.sync).toMatchObject({ catalog: { ok: true } });
    expect([listed(), await copies('drifting')], 'the push reused: nothing listed').toEqual([0, []]);
    await sleep(PERIOD_MS / 2);
    countRequests(true);
    await syncRuntime(kcp, runtimes, drifting, memo, 'any', every);
    expect([listed(), await copies('drifting')], 'listed and put back').toEqual([2, ['waits-1.0.0']]);
  });

  it("a runtime watch's full check lists them whatever was pushed just before", async () => {
    const memo = new SyncMemo(PERIOD_MS);
    const drifting = pushedBefore('drifting');
    await syncRuntime(kcp, runtimes, drifting, memo, false, every);
    countRequests(true);
    await syncRuntime(kcp, runtimes, drifting, memo, 'live', every);
    expect(listed()).toBe(2);
  });
});
