// The functions as Knative Serving runs them (issue 35): each function's own entry point (functions/<name>/start.ts,
// what its image runs) in processes of its own, `instances` of each, configured by environment as its Service
// configures it (PORT, K_SINK, KUBECONFIG, LIFECYCLE_*). One address in front of them queues calls beyond the
// Service's containerConcurrency per instance and hands each to the least busy one, as Serving's queue-proxy and
// activator do (queue-proxy.ts). No Serving controller runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { TalliedRequest } from '../../shared/kube/request-tally.ts';
import { freePort } from '../controlplane/ports.ts';
import { startQueueProxy } from './queue-proxy.ts';

export interface FunctionPodsOptions {
  name: string;
  instances: number;
  /** The functions' environment (PORT is set per instance). */
  env: Record<string, string>;
  logDir: string;
  /** The Service's containerConcurrency: calls in flight per instance, the rest queued (queue-proxy.ts). */
  concurrency: number;
}

export interface FunctionPods {
  /** The port the function is reached at on every address of this network namespace. */
  readonly port: number;
  /** `<function>-<n>` → pid, for the bench's CPU and memory figures. */
  readonly processes: { name: string; pid: number }[];
  /** Each instance's calls so far (from its /metrics). */
  calls(): Promise<CallsOfInstance[]>;
  close(): Promise<void>;
}

const entryOf = (name: string) => fileURLToPath(new URL(`../../functions/${name}/start.ts`, import.meta.url));
const READY_MS = 60_000;

/** Waits until an instance answers its readiness probe; fails with its log's tail when it exits or never answers. */
async function ready(child: ChildProcess, port: number, log: string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}/health/readiness`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  child.kill('SIGKILL');
  throw new Error(`function process ${log} did not become ready: ${readFileSync(log, 'utf8').slice(-2_000)}`);
}

/** One instance's calls: how many by outcome status, the seconds they took together (time in the function), and the
 * Kubernetes requests it counted (LIFECYCLE_COUNT_REQUESTS; none when off). */
export interface CallsOfInstance {
  byStatus: Record<string, number>;
  busySeconds: number;
  requests: TalliedRequest[];
}

/** PURE. An instance's calls, from its Prometheus text. */
export function callsOf(metrics: string): CallsOfInstance {
  const byStatus: Record<string, number> = {};
  for (const m of metrics.matchAll(/^lifecycle_function_invocations_total\{([^}]*)\} (\S+)$/gm)) {
    const status = /status="([^"]*)"/.exec(m[1] ?? '')?.[1] ?? 'unknown';
    byStatus[status] = (byStatus[status] ?? 0) + Number(m[2]);
  }
  const busySeconds = [...metrics.matchAll(/^lifecycle_function_duration_seconds_sum(?:\{[^}]*\})? (\S+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
  return { byStatus, busySeconds, requests: requestsOf(metrics) };
}

const unescaped = (value: string) => value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

/** PURE. The requests an instance counted, from its `lifecycle_kube_requests_total` samples. */
function requestsOf(metrics: string): TalliedRequest[] {
  return [...metrics.matchAll(/^lifecycle_kube_requests_total\{([^\n]*)\} (\S+)$/gm)].map((m) => {
    const labels = Object.fromEntries(
      [...(m[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], unescaped(l[2] ?? '')]),
    );
    const { caller = '', server = '', verb = '', resource = '' } = labels;
    return { caller, server, verb, resource, count: Number(m[2]) };
  });
}

export async function startFunctionPods(opts: FunctionPodsOptions): Promise<FunctionPods> {
  const children: { child: ChildProcess; port: number; name: string }[] = [];
  const stopAll = () => children.forEach(({ child }) => child.kill('SIGTERM'));
  try {
    for (let i = 1; i <= opts.instances; i++) {
      const port = await freePort();
      const name = `${opts.name}-${i}`;
      const log = join(opts.logDir, `fn-${name}.log`);
      const out = openSync(log, 'a');
      const child = spawn(process.execPath, [entryOf(opts.name)], {
        env: { ...opts.env, PORT: String(port) },
        stdio: ['ignore', out, out],
      });
      children.push({ child, port, name });
      await ready(child, port, log);
    }
  } catch (error) {
    stopAll();
    throw error;
  }
  const proxy = await startQueueProxy(
    children.map((c) => c.port),
    opts.concurrency,
  );
  return {
    port: proxy.port,
    processes: children.map(({ child, name }) => ({ name, pid: child.pid ?? 0 })),
    calls: () =>
      Promise.all(
        children.map(({ port }) =>
          fetch(`http://127.0.0.1:${port}/metrics`)
            .then((r) => r.text())
            .then(callsOf, (): CallsOfInstance => ({ byStatus: {}, busySeconds: 0, requests: [] })),
        ),
      ),
    close: async () => {
      await proxy.close();
      await Promise.all(
        children.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 35_000).unref();
            }),
        ),
      );
    },
  };
}
