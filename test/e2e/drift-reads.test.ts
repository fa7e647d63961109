// A Kyma's drift checks (ADR 57): its modules, checked one after the other in the Kyma's drift slot, read each kind of
// object once through a list by the managed-by label instead of each object by name, and a check that finds everything
// as desired reads nothing on the KCP; what they compare comes from the API server's watch cache, no read reaches etcd
// (ADR 76); the catalog copies, pushed by the install, are left to a later check (ADR 90, test/catalog-waits.test.ts);
// the Kyma's own drift check calls resolve-template and aggregate-status, not purge (ADR 91), its modules' checks are
// one apply-remote call (ADR 94); a module found as the last check found it is not rendered again (ADR 92), nor is a
// Kyma whose last check found nothing to do (ADR 93), nor its Manifests when the last reply saw the same (ADR 95).
// What drifted is still found and put back. Real KCP and a runtime of its own (its etcd counts only this
// test's reads), the local runner; the request tally counts what the drift checks send.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, KCP_NAMESPACE, REMOTE_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { eventAbout, LANE, LANE_BACKGROUND, RESYNC_DUE } from '../../shared/host/events.ts';
import { RESYNC_DRIFT, RESYNC_REASON } from '../../shared/core/resync-reasons.ts';
import { modulesDue } from '../../shared/host/modules-due.ts';
import { countRequests, requestTally } from '../../shared/kube/request-tally.ts';
import { LISTED_MS } from '../../shared/kube/listed-reads.ts';
import { RECENT_READ_MS } from '../../shared/kube/recent-reads.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { deploymentOf } from './removal-helpers.ts';
import { converged } from './replay.ts';
import { callsIn } from './handled.ts';
import { throwawayRuntime } from './throwaway.ts';
import { parseSamples, scrapeMetrics } from '../../bench/apiserver-metrics.ts';
import { countsBetween } from '../../bench/idle-result.ts';
import { loadKubeConfig, type Cluster } from '../../local/controlplane/index.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import type { KubeObject } from '../../shared/kube/types.ts';
import {
  applyKyma,
  connectRuntime,
  justAfterTheMinute,
  kymaInState,
  manifestsOf,
  resyncTicks,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const KYMA = 'drift-reads';
const MODULES = ['sierra', 'tango', 'uniform'];
let world: World;
let cluster: Cluster;
let runtime: KubeClient;

/** The runtime's etcd reads so far by resource (`etcd_requests_total`, operations that read), e.g. `configmaps`. */
async function etcdReads(): Promise<Map<string, number>> {
  const reads = new Map<string, number>();
  for (const { labels, value } of parseSamples(await scrapeMetrics(cluster), 'etcd_requests_total')) {
    if (!/^(get|list)/i.test(labels.operation ?? '')) continue;
    const resource = `${labels.resource ?? ''}${labels.group ? `.${labels.group}` : ''}`;
    reads.set(resource, (reads.get(resource) ?? 0) + value);
  }
  return reads;
}

/** What apply-remote's drift checks sent since counting started, as `<server> <verb> <resource>` → count. */
function driftRequests(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requestTally().filter((t) => t.caller === 'apply-remote (drift)')) {
    const where = r.server === world.kcp.server ? 'kcp' : 'runtime';
    const key = `${where} ${r.verb} ${r.resource}`;
    out[key] = (out[key] ?? 0) + r.count;
  }
  return out;
}

const CHECKED_BY = { module: 'apply-remote', kyma: 'aggregate-status', resolution: 'resolve-template' } as const;

/** The drift checks so far by what they found: apply-remote's of modules (`lifecycle_module_drift_checks_total`),
 * aggregate-status' of Kymas (`…_kyma_…`) or resolve-template's replies (`…_resolution_…`), from its /metrics. */
async function driftChecks(of: keyof typeof CHECKED_BY = 'module'): Promise<Record<string, number>> {
  const text = await (await fetch(new URL('/metrics', world.runner.functions.get(CHECKED_BY[of]) ?? ''))).text();
  const counts: Record<string, number> =
    of === 'resolution' ? { unchanged: 0, replied: 0 } : { unchanged: 0, checked: 0 };
  for (const { labels, value } of parseSamples(text, `lifecycle_${of}_drift_checks_total`))
    counts[labels.found ?? ''] = value;
  return counts;
}

/** The resync's drift checks of the Kyma's modules, one `modules.due` naming its Manifests as its tick sends it
 * (ADR 94), and, `withKyma`, the Kyma's own `resync.due` first. Answers the ids of the events sent, the Kyma's first. */
async function checkDrift(withKyma = false): Promise<string[]> {
  const names = (await manifestsOf(world, KYMA)).map((m) => m.metadata.name);
  const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace: KCP_NAMESPACE, name: KYMA };
  const extensions = { [LANE]: LANE_BACKGROUND, [RESYNC_REASON]: RESYNC_DRIFT };
  const events = [
    ...(withKyma ? [eventAbout(RESYNC_DUE, 'resync', key, undefined, extensions)] : []),
    ...modulesDue('resync', key, names, undefined, extensions),
  ];
  for (const event of events) await world.runner.broker.publish(event);
  await world.runner.broker.idle();
  return events.map((e) => e.id);
}

beforeAll(async () => {
  world = await startWorld();
  for (const name of MODULES) {
    await publishSampleModule(world.registry, world.kcp, { name, version: '1.0.0', namespace: KCP_NAMESPACE });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  }
  cluster = await throwawayRuntime('drift-reads');
  runtime = await KubeClient.from(loadKubeConfig(cluster.kubeconfig));
  world.runtimes = [...world.runtimes, runtime];
  world.runtimeKubeconfigs = [...world.runtimeKubeconfigs, cluster.kubeconfig];
  await connectRuntime(world, KYMA, world.runtimes.length - 1);
  await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
  await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.every((m) => m.state === 'Ready') === true);
  await converged(world);
});

afterAll(async () => {
  countRequests(false);
  await stopWorld(world);
  await cluster.stop();
});

const CATALOG = ['moduletemplates', 'modulereleasemetas'].map((r) => `${r}.operator.kyma-project.io`);
const RUNTIME_KYMA = 'kymas.operator.kyma-project.io';

describe("a Kyma's drift checks", () => {
  it('read each kind once per namespace for all its modules, and nothing on the KCP when nothing drifted', async () => {
    await justAfterTheMinute();
    const ticks = resyncTicks(world);
    const before = await etcdReads();
    countRequests(true);
    const [kymaCheck = '', modulesCheck = ''] = await checkDrift(true);
    const sent = driftRequests();
    const after = await etcdReads();
    // A drift check is for a Ready Kyma only: purge is not called for it (ADR 91).
    const log = await readFile(world.logFile, 'utf8');
    const calls = callsIn(log, kymaCheck).map((c) => c.fn);
    expect(calls.sort(), "the functions the Kyma's drift check called").toEqual([
      'aggregate-status',
      'resolve-template',
    ]);
    // Its modules' checks are one apply-remote call (ADR 94).
    expect(callsIn(log, modulesCheck), "the modules' drift checks").toEqual([
      { fn: 'apply-remote', status: 204, msg: 'done' },
    ]);
    expect(resyncTicks(world), 'no resync tick meanwhile').toBe(ticks);
    const read = (resource: string) =>
      requestTally().some((t) => t.caller.endsWith('(drift)') && t.resource === resource);
    const compared = ['configmaps', 'serviceaccounts', 'deployments.apps', 'namespaces', RUNTIME_KYMA];
    expect(
      compared.filter((resource) => !read(resource)),
      'what the drift checks read',
    ).toEqual([]);
    // The install pushed the catalog copies less than 1.5 drift periods ago: this check takes them as current (ADR 90).
    expect(CATALOG.filter(read), 'the catalog copies, listed every other drift period').toEqual([]);
    const fromEtcd = compared.filter((r) => (after.get(r) ?? 0) > (before.get(r) ?? 0));
    expect(fromEtcd, 'read through etcd instead of the watch cache').toEqual([]);
    for (const kind of ['configmaps', 'serviceaccounts', 'deployments.apps'])
      expect([kind, sent[`runtime list ${kind}`], sent[`runtime get ${kind}`] ?? 0]).toEqual([kind, 1, 0]);
    expect(sent['kcp get manifests.operator.kyma-project.io'] ?? 0, 'no withdraw check: nothing written').toBe(0);
    expect(Object.keys(sent).filter((k) => /^(kcp|runtime) (apply|create|patch|update|delete)/.test(k))).toEqual([]);
  });

  it('still find a deleted Deployment (by name, as the list lacks it) and put it back', async () => {
    await sleep(LISTED_MS + 1_000); // the lists of the first check are let go
    await justAfterTheMinute();
    await runtime.delete({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: REMOTE_NAMESPACE,
      name: 'tango-manager',
    });
    countRequests(true);
    await checkDrift();
    const sent = driftRequests();
    expect(sent['runtime list deployments.apps']).toBe(1);
    expect(sent['runtime get deployments.apps'], 'the one the list lacks, read by name').toBeGreaterThanOrEqual(1);
    expect(sent['runtime apply deployments.apps'], 'put back').toBe(1);
    expect(await deploymentOf(runtime, 'tango')).toBeDefined();
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.every((m) => m.state === 'Ready') === true);
  });

  it('stop after their reads once a check found a module as desired, and still put back what is edited', async () => {
    await sleep(LISTED_MS + 1_000);
    await checkDrift(); // tango's Deployment, put back, has rolled out since: this check finds it so (ADR 92)
    await sleep(LISTED_MS + 1_000);
    let before = await driftChecks();
    countRequests(true);
    await checkDrift();
    expect(
      countsBetween(before, await driftChecks()),
      'nothing rendered: every module as the last check found it',
    ).toEqual({
      unchanged: MODULES.length,
      checked: 0,
    });
    expect(driftRequests()['runtime list configmaps'], 'the reads that find drift are still made').toBe(1);
    await sleep(LISTED_MS + 1_000);
    const config = { apiVersion: 'v1', kind: 'ConfigMap', namespace: REMOTE_NAMESPACE, name: 'sierra-config' };
    await runtime.mergePatch(config, { data: { version: 'edited' } });
    before = await driftChecks();
    countRequests(true);
    await checkDrift();
    expect(countsBetween(before, await driftChecks())).toEqual({ unchanged: MODULES.length - 1, checked: 1 });
    expect(driftRequests()['runtime apply configmaps'], 'put back').toBe(1);
    expect((await runtime.get<KubeObject & { data?: Record<string, string> }>(config))?.data?.version).toBe('1.0.0');
  });

  it("stop after their reads once the Kyma's check found nothing to do, and still mirror a changed runtime Kyma", async () => {
    // A runtime Kyma read within RECENT_READ_MS stands in for a drift check's (ADR 88): each check here reads anew.
    await sleep(RECENT_READ_MS + 1_000);
    await checkDrift(true); // in full: finds nothing to do and remembers what it saw (ADR 93)
    await sleep(RECENT_READ_MS + 1_000);
    let before = await driftChecks('kyma');
    countRequests(true);
    await checkDrift(true);
    expect(countsBetween(before, await driftChecks('kyma')), 'the Kyma as the last check found it').toEqual({
      unchanged: 1,
      checked: 0,
    });
    // One read of the runtime Kyma for the whole check (ADR 88), and nothing written by aggregate-status.
    const runtimeKymaReads = requestTally().filter((t) => t.resource === RUNTIME_KYMA);
    expect(
      runtimeKymaReads.map((t) => [t.verb, t.count]),
      'the runtime Kyma, read once',
    ).toEqual([['get', 1]]);
    const writes = requestTally().filter((t) => t.caller.startsWith('aggregate-status') && t.verb !== 'get');
    expect(
      writes.filter((t) => t.verb !== 'list'),
      'what aggregate-status wrote',
    ).toEqual([]);
    const ref = { apiVersion: API_VERSION, kind: 'Kyma', namespace: REMOTE_NAMESPACE, name: 'default' };
    await runtime.mergePatch(ref, { status: { state: 'Error' } }, 'status');
    await sleep(RECENT_READ_MS + 1_000);
    before = await driftChecks('kyma');
    await checkDrift(true);
    expect(countsBetween(before, await driftChecks('kyma')).unchanged, 'the edited runtime Kyma').toBe(0);
    expect((await runtime.get<KubeObject & { status?: { state?: string } }>(ref))?.status?.state).toBe('Ready');
  });

  it("leave out resolve-template's reply when its last one saw the same, and reply once a Manifest moved", async () => {
    await checkDrift(true); // replies, or not if the last reply saw the same: what the last reply saw is kept
    const replyOf = async (id: string) =>
      callsIn(await readFile(world.logFile, 'utf8'), id).find((c) => c.fn === 'resolve-template')?.replyType;
    let before = await driftChecks('resolution');
    const [quiet = ''] = await checkDrift(true);
    expect(countsBetween(before, await driftChecks('resolution')), 'as the last reply saw it').toEqual({
      unchanged: 1,
      replied: 0,
    });
    expect(await replyOf(quiet), 'no modules.resolved: render-manifest is not called').toBeUndefined();
    // A Manifest moved on the KCP (an annotation: no input of the resolution, which a Kyma's own metadata would be).
    const [manifest] = await manifestsOf(world, KYMA);
    const ref = {
      apiVersion: API_VERSION,
      kind: 'Manifest',
      namespace: KCP_NAMESPACE,
      name: manifest?.metadata.name ?? '',
    };
    await world.kcp.mergePatch(ref, { metadata: { annotations: { 'e2e.kyma-project.io/touched': 'yes' } } });
    await world.runner.broker.idle();
    before = await driftChecks('resolution');
    let replied: string | undefined;
    // The function's watch cache may not have the patch yet: a check that does not see it replies to nothing.
    for (let tries = 0; !replied && tries < 10; tries++) replied = await replyOf((await checkDrift(true))[0] ?? '');
    expect(replied, 'a Manifest moved: the Manifests are rendered again').toBe(
      'io.kyma-project.lifecycle.modules.resolved',
    );
    expect(countsBetween(before, await driftChecks('resolution')).replied).toBe(1);
  });
});
