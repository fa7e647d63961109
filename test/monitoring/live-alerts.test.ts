// The shipped alert rules on a real Prometheus scraping the local runner's fleet component and functions: a runtime
// whose kube-apiserver is down fires KymaRuntimeUnreachable for its Kyma (and not KymaNotReady or KymaModuleError,
// which leave it to that alert); back up, the alert clears. Every rule and dashboard query answers, reads metrics
// that have series, and is not empty where they do. The `for` is cut to 5 s here (alert-rules.test.ts pins the real).
import { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { locateMonitoringBinaries } from '../../local/controlplane/binaries.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { RESYNC_DUE } from '../../shared/host/events.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { throwawayRuntime } from '../e2e/throwaway.ts';
import { applyKyma, deleteLeftoverKymas, eventually, kymaInState, startWorld, type World } from '../e2e/world.ts';
import { connectCluster } from '../faults/restart-helpers.ts';
import { dashboards, queriesOf } from '../../tools/monitoring/dashboards.ts';
import { startPrometheus, type Prometheus } from './prometheus.ts';
import { readRule, type RuleSpec } from './rules.ts';

const MODULE = 'tango';
const KYMA = 'alerting';
let world: World;
let cluster: Cluster;
let prometheus: Prometheus;
let rules: RuleSpec;

beforeAll(async () => {
  const { prometheus: binary } = await locateMonitoringBinaries();
  rules = (await readRule()).spec;
  const quick = { groups: rules.groups.map((g) => ({ ...g, rules: g.rules.map((r) => ({ ...r, for: '5s' })) })) };
  world = await startWorld();
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
  cluster = await throwawayRuntime('alerting-runtime');
  prometheus = await startPrometheus(
    binary,
    inject('controlPlane').runDir,
    { fleet: [world.runner.fleet.url], functions: [...world.runner.functions.values()] },
    quick,
  );
}, 1_800_000);

afterAll(async () => {
  await prometheus?.stop();
  if (cluster?.apiServer.exit()) await cluster.restartApiServer();
  if (world) await deleteLeftoverKymas(world);
  await world?.kcp
    .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: KYMA })
    .catch(() => undefined);
  await world?.runner.stop();
  await cluster?.stop();
});

/** Metrics with series only at times: installs waiting for a release. */
const SERIES_ONLY_AT_TIMES = new Set(['lifecycle_module_release_pending']);
const firingFor = async (alert: string) => (await prometheus.firing(alert)).filter((l) => l.kyma_name === KYMA);

describe('alerts on a live fleet', () => {
  it('a runtime down fires KymaRuntimeUnreachable for its Kyma, not KymaNotReady; back up, the alert clears', async () => {
    await connectCluster(world, KYMA, cluster);
    await cluster.apiServer.kill();
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, KYMA, 'Error');
    const fired = await eventually(
      'KymaRuntimeUnreachable firing',
      async () => (await firingFor('KymaRuntimeUnreachable'))[0],
      60_000,
    );
    expect(fired).toMatchObject({ severity: 'warning', kyma_name: KYMA });
    await new Promise((r) => setTimeout(r, 6_000)); // longer than the cut `for`: the others would have fired by now
    expect(await firingFor('KymaNotReady')).toEqual([]);
    expect(await firingFor('KymaModuleError')).toEqual([]);

    await cluster.restartApiServer();
    await kymaInState(world, KYMA, 'Ready');
    await eventually(
      'KymaRuntimeUnreachable cleared',
      async () => (await firingFor('KymaRuntimeUnreachable')).length === 0,
      60_000,
    );
  }, 300_000);

  it('events a function refuses reach the fleet as dead letters: counted by function, LifecycleDeadLetters fires', async () => {
    const refused = (i: number) =>
      new CloudEvent({
        type: RESYNC_DUE,
        source: 'live-alerts',
        id: `refused-${i}`,
        kind: 'Kyma',
        apiversion: API_VERSION,
      });
    await world.runner.broker.publish(refused(0)); // no name: the Kyma's functions answer 400, not retried
    const count = `lifecycle_dead_letters_total{fn="resolve-template"}`;
    await eventually('the first dead letter scraped', async () => (await prometheus.query(count)).length > 0, 30_000);
    for (let i = 1; i <= 4; i++) await world.runner.broker.publish(refused(i));
    const fired = await eventually(
      'LifecycleDeadLetters firing for resolve-template',
      async () => (await prometheus.firing('LifecycleDeadLetters')).find((l) => l.fn === 'resolve-template'),
      60_000,
    );
    expect(fired).toMatchObject({ severity: 'warning' });
  }, 120_000);

  it('every rule and dashboard query answers; every metric they read has series; none is empty where its series exist', async () => {
    const queries = [
      ...rules.groups.flatMap((g) => g.rules.map((r) => ({ where: r.alert, expr: r.expr }))),
      ...Object.entries(dashboards()).flatMap(([file, board]) =>
        queriesOf(board as Parameters<typeof queriesOf>[0]).map((q) => ({
          where: `${file}: ${q.panel}`,
          expr: q.expr,
        })),
      ),
    ];
    for (const { where, expr } of queries) {
      const answer = await prometheus.query(expr); // throws on an error: a query Prometheus cannot evaluate
      const selectors = [...expr.matchAll(/\b(lifecycle_[a-z_]+)(\{[^}]*\})?/g)];
      const has = async (selector: string) => (await prometheus.query(`count(${selector})`)).length > 0;
      for (const [, name] of selectors)
        if (!SERIES_ONLY_AT_TIMES.has(name ?? '') && !(await has(name ?? '')))
          throw new Error(`${where}: no series of ${name} (an unknown metric?)`);
      const present = await Promise.all(selectors.map(([selector]) => has(selector)));
      // A query that filters (a comparison, `and`, `unless`, `absent`) may rightly be empty; others not, once their series exist.
      const filters = /[=!<>]=|[<>]|\bunless\b|\band\b|\babsent\(/.test(expr.replace(/\{[^}]*\}|\[[^\]]*\]/g, ''));
      if (present.every(Boolean) && !filters) expect(answer, `${where}: ${expr}`).not.toEqual([]);
    }
  });
});
