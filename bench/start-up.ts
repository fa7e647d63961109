// `npm run bench:start-up`: what a start of the lifecycle manager costs. One control plane (the KCP with the CRDs and
// the namespace, `--runtimes` runtime API servers each with a kubeconfig Secret), then `node local/start.ts` against it
// `--starts` times, one after the other: the CPU seconds and RSS of each start from its first instruction until
// `--settle-seconds` after it printed its functions (its watches listed, its caches filled). Starts differ by the
// machine's noise: read the median.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startControlPlane } from '../local/controlplane/index.ts';
import { installCrds } from '../local/controlplane/crds.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { LOAD_FLAGS } from './fleet.ts';
import { readProcessUsage } from './process-usage.ts';
import { parseStartUpArgs } from './start-up-args.ts';

const { starts, runtimes, settleSeconds } = parseStartUpArgs(process.argv.slice(2));
const settleMs = settleSeconds * 1000;
const NAMESPACE = 'kcp-system';
const say = (line: string) => console.error(`[start-up] ${line}`);

/** One start: spawned, waited for until it printed its functions and `settleMs` more, measured, stopped. */
async function oneStart(kubeconfig: string, registry: string): Promise<{ cpuSeconds: number; rssMiB: number }> {
  const env = { ...process.env, KUBECONFIG: kubeconfig, LIFECYCLE_OCI_REGISTRY: registry, LOG_LEVEL: 'error' };
  const child = spawn(realpathSync('node_modules/.bin/node'), ['local/start.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (b: Buffer) => b.toString().includes('functions:') && resolve());
      child.once('exit', (code) => reject(new Error(`local/start.ts exited with ${code}`)));
    });
    await sleep(settleMs);
    const usage = await readProcessUsage(child.pid ?? 0);
    if (!usage) throw new Error('the start ended before it was measured');
    return { cpuSeconds: usage.cpuSeconds, rssMiB: usage.rssBytes / 2 ** 20 };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const plane = await startControlPlane({ runtimes, apiServerFlags: LOAD_FLAGS, progress: say });
try {
  const kc = plane.kcp.kubeConfig();
  const registry = `http://${plane.registry?.host ?? ''}`;
  const kcp = await KubeClient.from(kc);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await installCrds(kc);
  for (const [i, runtime] of plane.runtimes.entries())
    await kcp.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: `kyma-${i}`,
        namespace: NAMESPACE,
        labels: { 'operator.kyma-project.io/kyma-name': `kyma-${i}` },
      },
      data: { config: Buffer.from(runtime.kubeconfig).toString('base64') },
    });
  say('a first start builds the bundle if it is not current (not counted)');
  await oneStart(plane.kcp.kubeconfigPath, registry);
  const measured: { cpuSeconds: number; rssMiB: number }[] = [];
  for (let i = 0; i < starts; i++) {
    measured.push(await oneStart(plane.kcp.kubeconfigPath, registry));
    const last = measured[measured.length - 1];
    say(`start ${i + 1}/${starts}: ${last?.cpuSeconds.toFixed(2)} CPU s, ${last?.rssMiB.toFixed(0)} MiB`);
  }
  const cpu = measured.map((m) => m.cpuSeconds);
  const rss = measured.map((m) => m.rssMiB);
  console.log(
    JSON.stringify({
      starts,
      runtimes,
      settleSeconds: settleMs / 1000,
      cpuSeconds: { median: median(cpu), min: Math.min(...cpu), max: Math.max(...cpu) },
      rssMiB: { median: Math.round(median(rss)), min: Math.round(Math.min(...rss)), max: Math.round(Math.max(...rss)) },
    }),
  );
} finally {
  await plane.stop();
}
