// What routes the bench's events (--engine): the local runner (broker, sources and functions in this process) or
// Knative Eventing's own Broker, channel and sources with each function in processes of its own (issue 35).
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerStats } from '../local/eventing/index.ts';
import type { CallsOfInstance } from '../local/knative/function-pods.ts';
import { startKnativeRunner } from '../local/knative/runner.ts';
import { startLocalRunner } from '../local/runner/local-runner.ts';
import type { Config } from '../shared/host/config.ts';
import type { TalliedRequest } from '../shared/kube/request-tally.ts';
import type { Logger } from '../shared/host/logger.ts';
import type { BenchSettings } from './args.ts';
import type { Fleet } from './fleet.ts';

/** Function → each instance's calls (Knative: from each instance's /metrics). */
export type InstanceCalls = Record<string, CallsOfInstance[]>;

export interface Engine {
  /** Resolves true once no event is being worked on, false when `limitMs` passed first. */
  settled(limitMs: number): Promise<boolean>;
  /** Processes other than the clusters' and this one that the run's cost includes: name → pid. */
  processes(): { name: string; pid: number }[];
  /** The local broker's counters, or each function instance's calls. */
  events(): Promise<{ broker?: BrokerStats; calls?: InstanceCalls }>;
  /** The requests the function processes counted so far (Knative: each instance's /metrics); none in the local runner,
   * whose functions count in this process. */
  requests(): Promise<TalliedRequest[]>;
  stop(): Promise<void>;
}

/** How long the calls must stay unchanged for Knative's routing to count as settled (it has no idle signal). */
const QUIET_MS = 10_000;

export async function startEngine(
  settings: BenchSettings,
  fleet: Fleet,
  config: Config,
  env: Record<string, string>,
  log: Logger,
  say: (line: string) => void,
): Promise<Engine> {
  if (settings.engine === 'local') {
    const runner = await startLocalRunner({ kcp: fleet.plane.kcp.kubeConfig(), config, log, resyncAtStart: false });
    return {
      settled: (limitMs) => Promise.race([runner.broker.idle().then(() => true), sleep(limitMs, false)]),
      processes: () => [],
      events: async () => ({ broker: runner.broker.stats() }),
      requests: async () => [],
      stop: () => runner.stop(),
    };
  }
  const knativeDir = process.env.KNATIVE_EVENTING_DIR ?? '';
  const hostsFile = process.env.KNATIVE_HOSTS_FILE ?? '';
  if (!knativeDir || !hostsFile)
    throw new Error(
      '--engine knative runs inside local/knative/cluster-network.sh with KNATIVE_EVENTING_DIR set (bench/knative.sh does both)',
    );
  const { plane } = fleet;
  const runner = await startKnativeRunner({
    kcp: plane.kcp.kubeConfig(),
    kubeconfigPath: plane.kcp.kubeconfigPath,
    kubeconfigFor: (u, g) => plane.kcp.kubeconfigFor(u, g),
    kubectl: plane.binaries.kubectl,
    knativeDir,
    runDir: plane.runDir,
    hostsFile,
    config,
    log,
    progress: say,
    functionPods: { instances: settings.instances, env },
  });
  const total = async () =>
    Object.values(await runner.calls())
      .flat()
      .reduce((sum, calls) => sum + Object.values(calls.byStatus).reduce((a, b) => a + b, 0), 0);
  return {
    settled: async (limitMs) => {
      const deadline = Date.now() + limitMs;
      for (let last = await total(); Date.now() < deadline;) {
        await sleep(QUIET_MS);
        const now = await total();
        if (now === last) return true;
        last = now;
      }
      return false;
    },
    processes: () => runner.processes(),
    events: async () => ({ calls: await runner.calls() }),
    requests: async () =>
      Object.values(await runner.calls())
        .flat()
        .flatMap((calls) => calls.requests),
    stop: () => runner.stop(),
  };
}
