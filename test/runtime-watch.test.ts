// `npm run runtime-watch` as its own process (the production notifier): it finds runtimes through the kubeconfig
// Secrets of the KCP and posts real binary-mode CloudEvents to K_SINK when a runtime Kyma changes.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig, type Cluster } from '../local/controlplane/index.ts';
import { API_VERSION, LABEL } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { installCrds } from '../local/controlplane/crds.ts';
import { RESYNC_DUE } from '../shared/host/events.ts';
import { throwawayRuntime } from './e2e/throwaway.ts';
import { eventually } from './e2e/world.ts';

const NAMESPACE = 'watch-test';
const KYMA_CRD = 'kymas.operator.kyma-project.io';
const REMOTE = { apiVersion: API_VERSION, kind: 'Kyma', namespace: 'kyma-system', name: 'default' };
let cluster: Cluster;
let runtime: KubeClient;
const received: Record<string, string>[] = [];
/** What was posted about the runtime of Kyma `name`, and when each arrived (ms since the epoch, in `at`). */
const about = (name: string) => received.filter((h) => h['ce-name'] === name);
let kcp: KubeClient;
const kymaIn = (name: string) => ({
  apiVersion: API_VERSION,
  kind: 'Kyma',
  metadata: { name, namespace: NAMESPACE },
  spec: { channel: 'regular' },
});
const sink = createServer((req: IncomingMessage, res) => {
  received.push({
    ...Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => k.startsWith('ce-'))
        .map(([k, v]) => [k, String(v)]),
    ),
    at: String(Date.now()),
  });
  req.resume();
  res.writeHead(202).end();
});

beforeAll(async () => {
  cluster = await throwawayRuntime('watch-runtime');
  runtime = await KubeClient.from(cluster.kubeConfig());
  await installCrds(cluster.kubeConfig());
  await runtime.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kyma-system' } });
  await runtime.create({
    ...REMOTE,
    metadata: { name: 'default', namespace: 'kyma-system' },
    spec: { channel: 'regular', modules: [] },
  } as never);
  kcp = await KubeClient.from(loadKubeConfig(inject('controlPlane').kcp));
  await installCrds(loadKubeConfig(inject('controlPlane').kcp)); // this file may run before any world made them
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }).catch(() => undefined);
  // Two Kymas on the same runtime: wt exists from the start, wt2 only has its kubeconfig Secret until the test makes it.
  for (const name of ['wt', 'wt2', 'wt3']) {
    await kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name, namespace: NAMESPACE, labels: { [LABEL.kymaName]: name } },
        data: { config: Buffer.from(cluster.kubeconfig).toString('base64') },
      },
      'e2e-user',
    );
  }
  await kcp.create(kymaIn('wt') as never);
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const name of ['wt', 'wt2', 'wt3'])
    await kcp?.delete({ apiVersion: API_VERSION, kind: 'Kyma', namespace: NAMESPACE, name }).catch(() => undefined);
  sink.close();
  await cluster?.stop();
});

/** `npm run runtime-watch` as its own process, posting to the test's sink; `exited` resolves with its exit code. */
async function startRuntimeWatch() {
  const kubeconfigPath = join(await mkdtemp(join(tmpdir(), 'runtime-watch-')), 'kcp.kubeconfig');
  await writeFile(kubeconfigPath, inject('controlPlane').kcp);
  const child = spawn(process.execPath, [join(import.meta.dirname, '../components/runtime-watch/main.ts')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      KUBECONFIG: kubeconfigPath,
      K_SINK: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
      LIFECYCLE_KCP_NAMESPACE: NAMESPACE,
      LOG_LEVEL: 'warn',
    },
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited };
}

describe('npm run runtime-watch', () => {
  it('announces the runtime Kyma it finds once its Kyma exists, posts a resync.due per spec change, and stops on SIGTERM', async () => {
    const { child, exited } = await startRuntimeWatch();
    try {
      await eventually('the existing runtime Kyma announced', async () => about('wt').length >= 1, 30_000);
      expect(about('wt')[0]).toMatchObject({
        'ce-type': RESYNC_DUE,
        'ce-source': '/lifecycle-manager/runtime-watch',
        'ce-kind': 'Kyma',
        'ce-name': 'wt',
        'ce-namespace': NAMESPACE,
      });
      // A runtime is watched only once its Kyma exists (ADR 46): wt2's is announced after wt2 is made, not at start.
      const made = Date.now();
      await kcp.create(kymaIn('wt2') as never);
      await eventually('the runtime of the new Kyma announced', async () => about('wt2').length >= 1, 30_000);
      expect(Number(about('wt2')[0]?.at)).toBeGreaterThanOrEqual(made);
      await runtime.mergePatch(REMOTE, { spec: { modules: [{ name: 'added-on-the-runtime' }] } });
      await eventually('the spec change posted', async () => about('wt').length >= 2, 30_000);
      await runtime.mergePatch(REMOTE, { metadata: { labels: { 'not-a-spec-change': 'true' } } });
      await new Promise((r) => setTimeout(r, 1500));
      expect(about('wt')).toHaveLength(2);
      // A deletion is always sent; the runtime Kyma created again as resolve-template creates it (field manager
      // kyma-sync-context, spec untouched since) is no user's change and is not sent (ADR 28).
      await runtime.delete(REMOTE);
      await eventually('the deletion posted', async () => about('wt').length >= 3, 30_000);
      await runtime.create(
        {
          apiVersion: API_VERSION,
          kind: 'Kyma',
          metadata: { name: 'default', namespace: 'kyma-system' },
          spec: { channel: 'regular', modules: [] },
        },
        false,
        'kyma-sync-context',
      );
      await new Promise((r) => setTimeout(r, 1500));
      expect(about('wt')).toHaveLength(3);
      expect(await runtime.get(REMOTE)).toBeDefined();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
  it('posts a resync.due for a Kyma whose list is said to come from its runtime when the runtime serves no Kymas', async () => {
    // The runtime's Kyma CRD deleted (the runtime Kyma with it) before the watch ever saw it (ADR 75): wt3's status
    // says its module list came from the runtime Kyma; wt and wt2, on the same runtime, say nothing of the kind.
    await runtime.delete({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: KYMA_CRD });
    await eventually(
      'the Kyma kind gone',
      async () => !(await runtime.list(API_VERSION, 'Kyma').catch(() => false)),
      30_000,
    );
    await kcp.create(kymaIn('wt3') as never);
    const wt3 = { apiVersion: API_VERSION, kind: 'Kyma', namespace: NAMESPACE, name: 'wt3' };
    await kcp.mergePatch(
      wt3,
      { status: { state: 'Ready', specSource: { from: 'runtime', channel: 'regular' } } },
      'status',
    );
    const before = { wt: about('wt').length, wt2: about('wt2').length };
    const { child, exited } = await startRuntimeWatch();
    try {
      await eventually('the gone Kyma kind announced for wt3', async () => about('wt3').length >= 1, 30_000);
      expect(about('wt3')[0]).toMatchObject({ 'ce-type': RESYNC_DUE, 'ce-name': 'wt3', 'ce-namespace': NAMESPACE });
      await new Promise((r) => setTimeout(r, 1500));
      expect({ wt: about('wt').length, wt2: about('wt2').length, wt3: about('wt3').length }).toEqual({
        ...before,
        wt3: 1,
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
