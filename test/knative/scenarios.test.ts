// The main scenarios with Knative Eventing's own parts routing every event (issue 24): Knative's ApiServerSource and
// PingSource adapters, the multi-tenant channel-based Broker (ingress, filter) on the in-memory channel, the eventing
// controller and webhook — built from knative.dev/eventing by local/knative/build.sh and run by local/knative/
// runner.ts with manifests/ applied as they are. Runs inside local/knative/cluster-network.sh (`./dev test:knative`,
// and as part of `./dev test`); its control plane is its own (KCP + one runtime + registry).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeConfig, startControlPlane, type ControlPlane } from '../../local/controlplane/index.ts';
import { startKnativeRunner, type KnativeRunner } from '../../local/knative/runner.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { RESYNC_DUE } from '../../shared/host/events.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { crRef, deploymentOf, dropFinalizers, userCr } from '../e2e/removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  REMOTE_KYMA,
  type World,
} from '../e2e/world.ts';

const KYMA = 'kn-a';
/** The functions' calls as they logged them ('done' or an error: one line per call), to see what was delivered. */
interface Call {
  fn?: string;
  ceId?: string;
  ceType?: string;
  object?: string;
  status?: number;
  replyType?: string;
}
const calls: Call[] = [];
/** Info lines are kept as calls (not printed), warnings and errors printed as before. */
const callLog = {
  write(line: string) {
    const entry = JSON.parse(line) as Call & { level: number };
    if (entry.status !== undefined) calls.push(entry);
    if (entry.level >= 40) process.stdout.write(line);
  },
};
const hostsFile = process.env.KNATIVE_HOSTS_FILE ?? '';
const knativeDir = process.env.KNATIVE_EVENTING_DIR ?? '';
let cp: ControlPlane | undefined;
let runner: KnativeRunner | undefined;
let world: World;

beforeAll(async () => {
  if (!hostsFile || !knativeDir)
    throw new Error('run inside local/knative/cluster-network.sh with KNATIVE_EVENTING_DIR set: ./dev test:knative');
  cp = await startControlPlane({ runtimes: 1, kcpWorkloads: true, progress: (l) => console.log(`[knative] ${l}`) });
  const { binaries } = cp;
  const kcpConfig = loadKubeConfig(cp.kcp.kubeconfig);
  const started = Date.now();
  runner = await startKnativeRunner({
    kcp: kcpConfig,
    kubeconfigPath: cp.kcp.kubeconfigPath,
    kubeconfigFor: (u, g) => cp?.kcp.kubeconfigFor(u, g) ?? Promise.reject(new Error('stopped')),
    kubectl: binaries.kubectl,
    knativeDir,
    runDir: cp.runDir,
    hostsFile,
    config: readConfig({
      LIFECYCLE_OCI_REGISTRY: `http://${cp.registry?.host ?? ''}`,
      LIFECYCLE_HELM_BINARY: binaries.helm,
      PATH: '/usr/bin:/bin',
    }),
    log: createLogger('knative-e2e', 'info', callLog),
    progress: (l) => console.log(`[knative] ${l}`),
  });
  console.log(`[knative] Knative Eventing and the functions up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const kcp = await KubeClient.from(kcpConfig);
  const runtime = await KubeClient.from(loadKubeConfig(cp.runtimes[0]?.kubeconfig ?? ''));
  world = {
    kcp,
    runtimes: [runtime],
    runtimeKubeconfigs: [cp.runtimes[0]?.kubeconfig ?? ''],
    registry: new RegistryClient({ host: cp.registry?.host ?? '', plainHttp: true }),
    runner: undefined as never,
    events: [],
    kymaRuntime: new Map(),
    logFile: '',
  };
  for (const version of ['1.0.0', '1.1.0', '1.2.0'])
    await publishSampleModule(world.registry, kcp, { name: 'alpha', version, namespace: KCP_NAMESPACE });
  await setReleaseChannels(kcp, KCP_NAMESPACE, 'alpha', [{ channel: 'regular', version: '1.0.0' }]);
}, 600_000);

afterAll(async () => {
  if (cp?.runtimes[0]?.apiServer.exit()) await cp.runtimes[0].restartApiServer();
  await runner?.stop();
  await cp?.stop();
});

const alpha = (k: Kyma | undefined) => k?.status?.modules?.find((m) => m.name === 'alpha');
/** A CloudEvent in binary mode posted to the Broker's ingress, as a sender outside the Broker posts it. */
const postToBroker = (attributes: Record<string, string>, body?: unknown) =>
  fetch(runner?.ingress ?? '', {
    method: 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    headers: {
      'content-type': 'application/json',
      'ce-specversion': '1.0',
      'ce-source': 'https://127.0.0.1/test',
      'ce-namespace': KCP_NAMESPACE,
      'ce-apiversion': API_VERSION,
      ...attributes,
    },
  });
const runtime = () => world.runtimes[0] as KubeClient;

describe('with Knative Eventing routing the events', () => {
  it('installs: a Kyma asking for a module goes Ready, the module running on the runtime', async () => {
    await connectRuntime(world, KYMA, 0);
    const applied = Date.now();
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'alpha' }] });
    await kymaInState(world, KYMA, 'Ready', (k) => alpha(k)?.state === 'Ready' && alpha(k)?.version === '1.0.0');
    console.log(`[knative] install: Kyma Ready ${((Date.now() - applied) / 1000).toFixed(1)} s after it was applied`);
    expect(await deploymentOf(runtime(), 'alpha')).toBeDefined();
  });

  it('upgrades: a channel bump in the ModuleReleaseMeta reaches the Kyma', async () => {
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'alpha', [{ channel: 'regular', version: '1.1.0' }]);
    await kymaInState(world, KYMA, 'Ready', (k) => alpha(k)?.state === 'Ready' && alpha(k)?.version === '1.1.0');
    expect((await manifestsOf(world, KYMA)).map((m) => m.status?.state)).toEqual(['Ready']);
  });

  it('takes a replayed event (posted to the Broker again) without changing anything', async () => {
    const before = await getKyma(world, KYMA);
    const manifestBefore = (await manifestsOf(world, KYMA))[0]?.metadata.resourceVersion;
    const from = calls.length;
    const id = `replay-${Date.now()}`;
    const answer = await postToBroker(
      {
        'ce-id': id,
        'ce-type': 'dev.knative.apiserver.resource.update',
        'ce-subject': `/apis/${API_VERSION}/namespaces/${KCP_NAMESPACE}/kymas/${KYMA}`,
        'ce-kind': 'Kyma',
        'ce-name': KYMA,
      },
      before,
    );
    expect(answer.status, "Knative's Broker ingress accepts it").toBe(202);
    // Delivered: each function whose Trigger takes Kyma updates finished a call about this very event (and
    // render-manifest a modules.resolved, had resolve-template answered with one).
    const handled = (fn: string) => calls.find((c) => c.fn === fn && c.ceId === id && (c.status ?? 500) < 300);
    const done = await eventually(
      'the replayed event handled by resolve-template, aggregate-status and purge, its reply by render-manifest',
      async () => {
        const answered = ['resolve-template', 'aggregate-status', 'purge'].map(handled);
        const reply =
          answered[0]?.replyType &&
          calls
            .slice(from)
            .find(
              (c) =>
                c.fn === 'render-manifest' &&
                c.ceType === answered[0]?.replyType &&
                c.object === `Kyma ${KCP_NAMESPACE}/${KYMA}`,
            );
        return answered.every(Boolean) && (!answered[0]?.replyType || reply) ? answered : undefined;
      },
      60_000,
    );
    expect(
      done.map((c) => [c?.fn, c?.status]),
      'each answered 204: resolve-template at once, the Kyma recording its own inputs as resolved (ADR 66)',
    ).toEqual([
      ['resolve-template', 204],
      ['aggregate-status', 204],
      ['purge', 204],
    ]);
    const after = await getKyma(world, KYMA);
    expect(after?.status?.state).toBe('Ready');
    expect(after?.metadata.resourceVersion, 'nothing was written for it').toBe(before?.metadata.resourceVersion);
    expect((await manifestsOf(world, KYMA))[0]?.metadata.resourceVersion, 'nor to its Manifest').toBe(manifestBefore);
  });

  it('rides out a runtime outage: Error naming the runtime while its kube-apiserver is down, Ready once it is back', async () => {
    const cluster = cp?.runtimes[0];
    if (!cluster) throw new Error('no runtime');
    await cluster.apiServer.kill();
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'alpha', [{ channel: 'regular', version: '1.2.0' }]);
    const down = await eventually(
      'the Kyma names the unreachable runtime',
      async () => {
        const k = await getKyma(world, KYMA);
        return k?.status?.state === 'Error' &&
          JSON.stringify(k.status).includes(`runtime of Kyma ${KYMA} unreachable: `)
          ? k
          : undefined;
      },
      120_000,
    );
    expect(alpha(down)?.state).not.toBe('Ready');
    // The Broker answers a sender once its channel has the event, not once every Trigger's retries ended (ADR 50): a
    // resync of the Manifest, answered 503 while the runtime is down, is still being retried after the answer.
    const id = `resync-${Date.now()}`;
    const attempts = () => calls.filter((c) => c.fn === 'apply-remote' && c.ceId === id);
    const manifest = (await manifestsOf(world, KYMA))[0]?.metadata.name ?? '';
    const answer = await postToBroker({
      'ce-id': id,
      'ce-type': RESYNC_DUE,
      'ce-kind': 'Manifest',
      'ce-name': manifest,
    });
    expect(answer.status, "Knative's Broker ingress accepts it").toBe(202);
    const atAnswer = attempts().length;
    const retried = await eventually(
      'apply-remote called again about the event after the Broker answered',
      async () => attempts().length > atAnswer && attempts(),
      60_000,
    );
    expect(retried.every((c) => c.status === 503)).toBe(true);
    await cluster.restartApiServer();
    await kymaInState(world, KYMA, 'Ready', (k) => alpha(k)?.state === 'Ready' && alpha(k)?.version === '1.2.0');
  });

  it('removes a module only once the user CR that blocks it is gone', async () => {
    await userCr(runtime(), 'alpha', 'mine', 'kyma-system', ['test.kyma-project.io/keep']);
    await runtime().mergePatch(REMOTE_KYMA, { spec: { modules: [] } });
    await eventually(
      'module Deleting, naming the user CR',
      async () => alpha(await getKyma(world, KYMA))?.message?.includes('kyma-system/mine'),
      90_000,
    );
    expect(await deploymentOf(runtime(), 'alpha')).toBeDefined();
    await runtime().delete(crRef('alpha', 'mine', 'kyma-system'));
    await dropFinalizers(runtime(), crRef('alpha', 'mine', 'kyma-system'));
    await eventually('Manifest gone', async () => (await manifestsOf(world, KYMA)).length === 0, 120_000);
    await kymaInState(world, KYMA, 'Ready', (k) => (k.status?.modules ?? []).length === 0);
    expect(await deploymentOf(runtime(), 'alpha')).toBeUndefined();
  });

  it('deletes the Kyma: purge cleans the runtime up and the Kyma goes', async () => {
    await world.kcp.delete({ apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: KYMA });
    await kymaGone(world, KYMA);
    expect(
      await runtime()
        .get(REMOTE_KYMA)
        .catch(() => undefined),
    ).toBeUndefined();
  });
});
