// The shipped alert rules on a real Prometheus scraping the local runner's fleet component and functions: a runtime
// whose kube-apiserver is down fires KymaRuntimeUnreachable for its Kyma (and not KymaNotReady or KymaModuleError,
// which leave it to that alert); once the kube-apiserver is back and the Kyma Ready, the alert clears. Every metric the rules read has
// series there. The rules' `for` is cut to 5 s here: alert-rules.test.ts pins the real ones with promtool.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Cluster } from '../../local/controlplane/index.ts';
import { locateMonitoringBinaries } from '../../local/controlplane/binaries.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { throwawayRuntime } from '../e2e/throwaway.ts';
import { applyKyma, deleteLeftoverKymas, eventually, kymaInState, startWorld, type World } from '../e2e/world.ts';
import { connectCluster } from '../faults/restart-helpers.ts';
import { startPrometheus, type Prometheus } from './prometheus.ts';

const MODULE = 'tango';
const KYMA = 'alerting';
const RULE = new URL('../../manifests/components/monitoring/prometheus-rule.yaml', import.meta.url);
interface Rule {
  alert: string;
  expr: string;
  for?: string;
}
let world: World;
let cluster: Cluster;
let prometheus: Prometheus;
let rules: { groups: { name: string; rules: Rule[] }[] };

beforeAll(async () => {
  const { prometheus: binary } = await locateMonitoringBinaries();
  rules = (parse(await readFile(RULE, 'utf8')) as { spec: typeof rules }).spec;
  const quick = { groups: rules.groups.map((g) => ({ ...g, rules: g.rules.map((r) => ({ ...r, for: '5s' })) })) };
  world = await startWorld();
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
  cluster = await throwawayRuntime('alerting-runtime');
  prometheus = await startPrometheus(
    binary,
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

  it('every metric the rules read has series on this fleet (a release in progress aside), every expression evaluates', async () => {
    const read = new Set(
      rules.groups.flatMap((g) =>
        g.rules.flatMap((r) => [...r.expr.matchAll(/\b(lifecycle_[a-z_]+)\b/g)].map((m) => m[1] ?? '')),
      ),
    );
    read.delete('lifecycle_module_release_pending'); // series only while a release has installs to move
    for (const name of read) expect(await prometheus.query(`count(${name})`), name).not.toEqual([]);
    for (const rule of rules.groups.flatMap((g) => g.rules))
      await expect(prometheus.query(rule.expr)).resolves.toBeDefined();
  });
});
