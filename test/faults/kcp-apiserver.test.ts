// Reliability matrix (issue 8): the KCP's kube-apiserver crashes mid-run and comes back — a watch gap.
// A KCP of its own; a Kyma with one module, Ready at 1.0.0 on the first runtime, and nothing in flight (the broker
// idle). The KCP kube-apiserver gets SIGKILL. While it is down, a second kube-apiserver on the same etcd (another port,
// as a second replica of an HA control plane; nothing of the lifecycle manager talks to it) takes a change that only a
// KCP event tells the functions about: version 1.1.0 is published (ModuleTemplate) and the ModuleReleaseMeta moves the
// channel to it. The first kube-apiserver starts again on the same port, the replica stops, and the upgrade arrives
// with no manual step: the test neither touches an object nor fires the resync.
// What covers the gap: the resync, not the ApiServerSource. The source's watches reconnect (backoff 1 s doubling to
// 30 s) but do not deliver the gap's changes: the restarted API server's watch cache starts at the current
// resourceVersion, the watches' older one is answered 410 and they re-list silently (as Knative's adapter does), so
// the ModuleTemplate and ModuleReleaseMeta changes never become events (in every run no such event reached the broker
// after the restart). The PingSource's tick — one falling into the gap is retried by the broker until the KCP answers
// — makes the resync function emit resync.due for the Kyma (Ready, its drift slot every LIFECYCLE_DRIFT_PERIOD_MINUTES
// = 1), resolve-template re-resolves the channel and finds 1.1.0. So the upgrade takes up to a minute after the
// restart (plus the broker's retry backoff when the tick fell into the gap). A change made right after the restart
// travels as an event again: the watches are back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig, type Cluster } from '../../local/controlplane/index.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { APISERVER_UPDATE } from '../../shared/host/events.ts';
import {
  applyKyma,
  connectRuntime,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from '../e2e/world.ts';
import { brokerIdle, kymaWhen, modulesReady, ownKcp, secondsSince } from './restart-helpers.ts';

const KYMA = 'gap';
const MODULE = 'xray';
let world: World;
let kcp: Cluster;

beforeAll(async () => {
  kcp = await ownKcp('faults-kcp');
  world = await startWorld({ LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' }, { kcp: kcp.kubeconfig });
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  if (kcp?.apiServer.exit()) await kcp.restartApiServer();
  await stopWorld(world);
  await kcp?.stop();
});

/** Nothing in flight that could carry the change by chance: the runtime watch is open (a watch still connecting would
 * announce a changed runtime Kyma later) and the broker has delivered everything. */
async function quiet(): Promise<void> {
  await eventually('the runtime watch is open', () => world.runner.runtimeWatching(KYMA));
  await brokerIdle(world);
}

/** Publishes `version` through `kcp` and moves the regular channel to it. */
async function release(kcpClient: KubeClient, version: string): Promise<void> {
  await publishSampleModule(world.registry, kcpClient, { name: MODULE, version, namespace: KCP_NAMESPACE });
  await setReleaseChannels(kcpClient, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version }]);
}

/** The Kyma Ready at `version`, its one Manifest too, and the runtime running that version. */
async function runsVersion(version: string, timeoutMs: number): Promise<void> {
  const kyma = await kymaWhen(
    world,
    KYMA,
    `Ready at ${version}`,
    (k) => k.status?.state === 'Ready' && modulesReady(1, version)(k),
    timeoutMs,
  );
  expect(kyma.status?.modules?.[0]?.version).toBe(version);
  expect((await manifestsOf(world, KYMA)).map((m) => [m.spec?.version, m.status?.state])).toEqual([[version, 'Ready']]);
  const config = await world.kymaRuntime.get(KYMA)?.get<{ metadata: { name: string }; data?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: 'kyma-system',
    name: `${MODULE}-config`,
  });
  expect(config?.data?.version, 'the runtime runs the new version').toBe(version);
}

const releaseMetaUpdates = (from: number) =>
  world.events
    .slice(from)
    .filter((e) => e.type === APISERVER_UPDATE && e['kind'] === 'ModuleReleaseMeta' && e['name'] === MODULE);

describe('the KCP kube-apiserver restarted mid-run', () => {
  it('a module upgrade released while it was down (through a second API server) arrives once it is back, with no manual step', async () => {
    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, KYMA, 'Ready', modulesReady(1, '1.0.0'));
    await quiet();

    await kcp.apiServer.kill();
    const replica = await kcp.startReplicaApiServer();
    await release(await KubeClient.from(loadKubeConfig(replica.kubeconfig)), '1.1.0');
    const afterGap = world.events.length;
    const restarted = Date.now();
    await kcp.restartApiServer();
    await replica.process.stop();

    await runsVersion('1.1.0', 240_000);
    console.info(
      `[faults] KCP kube-apiserver restarted → upgrade Ready in ${secondsSince(restarted)} s; ModuleReleaseMeta events after the restart: ${releaseMetaUpdates(afterGap).length}`,
    );
    expect(
      await world.kcp.get({
        apiVersion: API_VERSION,
        kind: 'ModuleTemplate',
        namespace: KCP_NAMESPACE,
        name: `${MODULE}-1.1.0`,
      }),
    ).toBeDefined();
  }, 420_000);

  it('after the restart the KCP is watched again: the next release arrives as an event', async () => {
    const before = world.events.length;
    const released = Date.now();
    await release(world.kcp, '1.2.0');
    await eventually(
      'a ModuleReleaseMeta update event from the ApiServerSource',
      async () => releaseMetaUpdates(before).length > 0,
      60_000,
    );
    await runsVersion('1.2.0', 120_000);
    console.info(`[faults] release after the restart → Ready in ${secondsSince(released)} s`);
  }, 240_000);
});
