import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateBinaries, type Binaries } from './binaries.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { startRegistry, type Registry } from './registry.ts';

export interface ControlPlaneOptions {
  /** Number of runtime clusters next to the KCP (default 2). */
  runtimes?: number;
  /** Run controller-manager + scheduler + kwok on the runtimes so workloads roll out (default true); 'simulated':
   * kwok alone marks them rolled out (the scale benchmark's `--rollouts simulated`). */
  runtimeWorkloads?: boolean | 'simulated';
  /** Also run controller-manager + scheduler + kwok on the KCP, so modules installed into it in single-cluster mode
   * (ADR 21) roll out (default false: the KCP then runs only garbage collection). */
  kcpWorkloads?: boolean;
  /** Start an OCI registry (default true). */
  registry?: boolean;
  /** Where run directories go (default: $TMPDIR/kyma-lifecycle-runs). */
  runRoot?: string;
  apiServerFlags?: string[];
  /** Progress lines (cluster started, timings); default: none. */
  progress?: (line: string) => void;
}

/** KCP + runtime clusters + registry, all real processes, recorded by PID in one run directory. */
export interface ControlPlane {
  readonly runDir: string;
  readonly binaries: Binaries;
  readonly kcp: Cluster;
  readonly runtimes: Cluster[];
  readonly registry: Registry | undefined;
  /** Seconds from start to all clusters ready (clusters start in parallel). */
  readonly startSeconds: number;
  stop(): Promise<void>;
}

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
export const defaultRunRoot = () => join(tmpdir(), 'kyma-lifecycle-runs');

export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const runRoot = opts.runRoot || defaultRunRoot();
  await reapStaleRuns(runRoot);
  const binaries = await locateBinaries();
  const runDir = join(runRoot, `run-${process.pid}-${Date.now()}`);
  await mkdir(join(runDir, 'pids'), { recursive: true });
  await writeFile(join(runDir, 'owner.pid'), String(process.pid));
  const watchdog = spawn('bash', [here('./watchdog.sh'), String(process.pid), runDir], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  const started = Date.now();
  const common = { runDir, binaries, ...(opts.apiServerFlags ? { apiServerFlags: opts.apiServerFlags } : {}) };
  const runtimeNames = Array.from({ length: opts.runtimes ?? 2 }, (_, i) => `runtime-${i + 1}`);
  const results = await Promise.allSettled([
    startCluster({ ...common, name: 'kcp', garbageCollection: true, workloads: opts.kcpWorkloads ?? false }),
    ...runtimeNames.map((name) => startCluster({ ...common, name, workloads: opts.runtimeWorkloads ?? true })),
    ...((opts.registry ?? true) ? [startRegistry(runDir, binaries)] : []),
  ]);
  // The watchdog ends by itself once the run directory is gone; it stays until then so that an interrupted
  // stop (a test runner's teardown timeout, a second Ctrl-C) still ends with everything reaped.
  const stopAll = async () => {
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    await rm(runDir, { recursive: true, force: true });
  };
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const values = results.map((r) => (r as PromiseFulfilledResult<Cluster | Registry>).value);
  const [kcp, ...rest] = values as [Cluster, ...Cluster[]];
  const startSeconds = (Date.now() - started) / 1000;
  opts.progress?.(
    `control plane ready in ${startSeconds.toFixed(1)} s: KCP + ${runtimeNames.length} runtimes (${runDir})`,
  );
  return {
    runDir,
    binaries,
    kcp,
    startSeconds,
    runtimes: rest.slice(0, runtimeNames.length),
    registry: (opts.registry ?? true) ? (values.at(-1) as Registry) : undefined,
    stop: stopAll,
  };
}

/** Stops processes left by earlier runs whose owner died without cleaning up. */
export async function reapStaleRuns(runRoot: string): Promise<void> {
  const entries = await readdir(runRoot).catch(() => [] as string[]);
  const stale: string[] = [];
  for (const entry of entries) {
    const owner = Number(await readFile(join(runRoot, entry, 'owner.pid'), 'utf8').catch(() => '0'));
    if (!isAlive(owner)) stale.push(join(runRoot, entry));
  }
  if (stale.length === 0) return;
  await new Promise((resolve) =>
    spawn('bash', [here('./reap.sh'), ...stale], { stdio: 'ignore' }).on('close', resolve),
  );
}

function isAlive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
