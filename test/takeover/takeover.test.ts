// Taking over a fleet upstream's lifecycle manager ran (issue 33): what upstream wrote on this harness
// (test/fixtures/upstream-klm-c5b83f1) is loaded into a KCP and one runtime per Kyma, then the functions start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { getKyma, startWorld, type World } from '../e2e/world.ts';
import { loadUpstreamFleet, manifestsIn, startUpstreamClusters, stopUpstreamClusters, uidsOf, writesSoFar, type UpstreamFleet } from './fleet.ts';

let fleet: UpstreamFleet | undefined;
let clusters: Awaited<ReturnType<typeof startUpstreamClusters>> | undefined;
let world: World;
let manifestsBefore: Record<string, string> = {};

beforeAll(async () => {
  clusters = await startUpstreamClusters('takeover');
  const started = clusters;
  world = await startWorld({ LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' }, {
    kcp: started.kcp.cluster.kubeconfig, identity: started.kcp.identity,
    beforeRunner: async (kcp) => {
      fleet = await loadUpstreamFleet(started, kcp);
      manifestsBefore = Object.fromEntries((await manifestsIn(kcp)).map((m) => [m.metadata.name, m.metadata.uid ?? '']));
    },
  });
}, 600_000);

afterAll(async () => {
  await world?.runner.stop();
  await stopUpstreamClusters(clusters ?? {});
});

describe('taking over a fleet upstream ran', () => {
  it('observe', async () => {
    if (!fleet) throw new Error('no fleet');
    await new Promise((r) => setTimeout(r, 30_000));
    await world.runner.broker.idle();
    const first = (await writesSoFar(fleet)).length;
    await new Promise((r) => setTimeout(r, 70_000));
    await world.runner.broker.idle();
    const writes = await writesSoFar(fleet);
    console.log('writes after 30 s', first, 'after 100 s', writes.length);
    const { writeFile } = await import('node:fs/promises');
    await writeFile('/tmp/takeover-writes.json', JSON.stringify(writes, null, 1));
    await writeFile('/tmp/takeover-events.json', JSON.stringify(world.events.filter((e) => (e as { kind?: string }).kind === 'Kyma').map((e) => ({ t: e.time, type: e.type, name: (e as { name?: string }).name, status: (e.data as Kyma | undefined)?.status, rv: (e.data as Kyma | undefined)?.metadata.resourceVersion, mf: ((e.data as Kyma | undefined)?.metadata as { managedFields?: { manager: string; subresource?: string; time?: string }[] } | undefined)?.managedFields?.map((f) => `${f.manager}:${f.subresource ?? ''}:${f.time}`) })), null, 1));
    const tally = new Map<string, number>();
    for (const w of writes) tally.set(`${w.cluster.startsWith('runtime') ? 'runtime' : 'kcp'} ${w.user} ${w.verb} ${w.resource} ${w.code}`, (tally.get(`${w.cluster.startsWith('runtime') ? 'runtime' : 'kcp'} ${w.user} ${w.verb} ${w.resource} ${w.code}`) ?? 0) + 1);
    console.log([...tally].map(([k, v]) => `${v}\t${k}`).sort().join('\n'));
    for (const kyma of fleet.kymas) {
      const k = await getKyma(world, kyma) as Kyma;
      console.log(kyma, k.status?.state, k.status?.lastOperation?.operation, JSON.stringify(k.status?.modules?.map((m) => [m.name, m.state, m.message])));
    }
    const after = Object.fromEntries((await manifestsIn(world.kcp)).map((m) => [m.metadata.name, m.metadata.uid ?? '']));
    console.log(JSON.stringify({ manifestsBefore, after }, null, 1));
    for (const [kyma, runtime] of fleet.runtimes) {
      const uids = await uidsOf(runtime.admin, fleet.runtimeObjects.get(kyma) ?? []);
      console.log(kyma, Object.entries(uids).filter(([, v]) => v === 'gone'));
    }
    expect(API_VERSION).toBeTruthy();
    expect(KCP_NAMESPACE).toBeTruthy();
  }, 600_000);
});
