// The numbers of one run, as JSON (one file per run, with the machine and the settings) and as a markdown table.
import { execFile } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { promisify } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import type { BrokerStats } from '../local/eventing/index.ts';
import type { Config } from '../shared/host/config.ts';
import { lifecycleEnvironment, type BenchSettings } from './args.ts';
import type { Cost } from './cost.ts';
import { LOAD_FLAGS, type Fleet } from './fleet.ts';
import type { ReadinessTracker } from './readiness.ts';
import { KCP_CONTROLLERS, KNATIVE_KCP_CONTROLLERS, ownRequests, ownWrites, RUNTIME_CONTROLLERS } from './own-writes.ts';
import { idleResult, round, top, type DriftChecks } from './idle-result.ts';
import type { ReleaseOutcome } from './release.ts';
import { functionOfCaller, type TalliedRequest } from '../shared/kube/request-tally.ts';
import type { Footprint } from './process-usage.ts';
import type { MemoryMark } from './memory-marks.ts';
import { callsPerInstall, costByFunction } from './by-function.ts';
import type { EditMarks } from './edit-timeline.ts';
import { editCost, editSummary, type EditCounts } from './edit-cost.ts';
import type { InstanceCalls } from './engine.ts';
import type { EndState } from './end-state.ts';
import { usageByRole } from './roles.ts';

import { percentile, type WriteCeiling } from './write-ceiling.ts';

const MIB = 1024 * 1024;

/** The fewest writes one module install can take: KCP — the Manifest created with its finalizers, its status once,
 * and one Kyma status write shared by the Kyma's modules; runtime — the sample module's 4 resources (CRD,
 * ServiceAccount, Deployment, ConfigMap) and its default CR. */
export const designMinimum = (modules: number) => ({
  kcpWritesPerModuleInstall: Number((2 + 1 / modules).toFixed(2)),
  runtimeWritesPerModuleInstall: 5,
});

/** The commit the run's code is from (read when the run starts: later commits do not change the running code). */
export const currentCommit = () =>
  promisify(execFile)('git', ['rev-parse', '--short', 'HEAD']).then(
    (g) => g.stdout.trim(),
    () => 'unknown',
  );

export interface RunInputs {
  /** The commit of the code that ran (currentCommit at the start). */
  code: string;
  settings: BenchSettings;
  fleet: Fleet;
  config: Config;
  created: Map<string, number>;
  tracker: ReadinessTracker;
  started: number;
  converged: number;
  /** Edits after convergence: when each was made and its hops seen. */
  edits: EditMarks[];
  /** What the edits after convergence cost, counted until the last was Ready (absent without edits). */
  editCounts?: EditCounts | undefined;
  /** Edits made while the fleet converged (--busy-edits). */
  busyEdits: EditMarks[];
  /** Absent when the run was bounded by --timeout-seconds before convergence (no idle window then). */
  flapped?: string[];
  ceiling: WriteCeiling;
  convergenceCost: Cost;
  /** The lifecycle manager's requests during convergence as counted in this process, by the function that sent them. */
  requests: TalliedRequest[];
  /** The functions' calls during convergence counted in this process, by caller name (none from function processes). */
  callsByEvent: Record<string, number>;
  /** This process's memory at the ends of the phases after convergence (absent when bounded). */
  memory?: MemoryMark[];
  /** This process at convergence: sockets, heap and memory outside it. */
  footprint: Footprint;
  idleCost?: Cost;
  /** The broker had no work left when the idle window began (false: it began after a bounded wait, drift checks running). */
  idleSettled?: boolean;
  /** The drift checks in the idle window by what they found, counted in this process (--engine local). */
  idleDriftChecks?: DriftChecks | undefined;
  /** The release phase (--release), when it ran. */
  release?: ReleaseOutcome | undefined;
  /** Convergence did not finish within --timeout-seconds: the numbers are of what was Ready by then. */
  timedOut: boolean;
  /** The local broker's counters at the end of the run (--engine local). */
  broker?: BrokerStats | undefined;
  /** Each function instance's calls by status at the end of the run (--engine knative). */
  calls?: InstanceCalls | undefined;
  /** What the fleet converged to (compared between runs, e.g. 1 and 3 instances per function). */
  endState?: EndState | undefined;
}

export type BenchResult = Awaited<ReturnType<typeof resultOf>>;

export async function resultOf(r: RunInputs) {
  const perKyma = [...r.created.entries()]
    .filter(([name]) => r.tracker.kymaReady.has(name))
    .map(([name, at]) => ((r.tracker.kymaReady.get(name) ?? at) - at) / 1000)
    .sort((a, b) => a - b);
  const seconds = (r.converged - r.started) / 1000;
  const manifests = r.settings.kymas * r.fleet.modules.length;
  const readyKymas = r.tracker.kymaReady.size;
  const installs = [...r.tracker.moduleReady.keys()].filter((key) =>
    r.fleet.modules.includes(key.split('/')[1] ?? ''),
  ).length;
  const kcpWritesPerSecond = r.convergenceCost.kcp.writes / seconds;
  const allowedKymasPerSecond = r.ceiling.writesPerSecond / (r.convergenceCost.kcp.writes / Math.max(1, readyKymas));
  const idle = r.idleCost;
  const kcpControllers = r.settings.engine === 'knative' ? KNATIVE_KCP_CONTROLLERS : KCP_CONTROLLERS;
  return {
    when: new Date().toISOString(),
    code: r.code,
    settings: r.settings,
    machine: await machine(r.fleet),
    serverFlags: LOAD_FLAGS,
    setup: {
      isolation: r.settings.runtimePerKyma
        ? "one runtime API server per Kyma, each Kyma in its runtime's kyma-system (--runtime-per-kyma)"
        : 'each Kyma in its own runtime namespace (docs/adr/0013); Kymas per runtime API server: ' +
          Math.ceil(r.settings.kymas / r.settings.runtimes),
      shared:
        "per runtime API server: the lifecycle CRDs and each module's CRD (cluster-scoped); everything namespaced is per Kyma",
      engine: { name: r.settings.engine, instancesPerFunction: r.settings.instances },
      functions:
        r.settings.engine === 'knative'
          ? KNATIVE_SETUP(r.settings.instances)
          : `all six in this process (local runner), local broker with 32 concurrent deliveries per Trigger (8 per background Trigger), the user lane first, then the oldest Kyma's work first (ADR 25)${r.config.localBrokerCoalesce ? ', coalescing waiting deliveries about one object (ADR 17)' : ''}, one ApiServerSource watch on the KCP, one watch per runtime Kyma`,
      rollouts:
        r.settings.rollouts === 'simulated'
          ? 'simulated: kwok marks each new Deployment generation rolled out after 1 s (no controller-manager, ReplicaSets or Pods)'
          : 'real: kube-controller-manager, kube-scheduler and kwok (fake node) on every runtime API server',
      driftPeriodMinutes: r.config.driftPeriodMinutes,
      resyncEverySeconds: 60,
      // Settings given to this run as LIFECYCLE_* variables (the rest are the defaults).
      environment: lifecycleEnvironment(),
    },
    convergence: {
      timedOut: r.timedOut,
      kymas: r.settings.kymas,
      ready: readyKymas,
      manifests,
      installsReady: installs,
      seconds: round(seconds),
      kymasPerSecond: round(readyKymas / seconds),
      moduleInstallsPerSecond: round(installs / seconds),
      installsReadyAfterSeconds: installsReadyAfter(r),
      perKymaSeconds: {
        p50: round(percentile(perKyma, 50)),
        p95: round(percentile(perKyma, 95)),
        p99: round(percentile(perKyma, 99)),
        max: round(perKyma.at(-1) ?? Number.NaN),
      },
      fairness: fairness(r, perKyma, seconds),
    },
    apiCost: {
      // The bench itself wrote each Kyma and its kubeconfig Secret on the KCP, and the busy edits on the runtimes.
      kcp: costPer(r.convergenceCost.kcp, installs, kcpControllers, 2 * r.settings.kymas),
      runtimes: costPer(r.convergenceCost.runtimes, installs, RUNTIME_CONTROLLERS, r.busyEdits.length),
      designMinimum: designMinimum(r.fleet.modules.length),
      // Per function, per install, as counted in this process (`other`: the sources, watches and the bench itself).
      byFunction: costByFunction(
        r.requests.map((q) => ({ ...q, caller: functionOfCaller(q.caller) })),
        r.fleet.kcp.server,
        installs,
      ),
      // The same by the event each call took (`<function> ← <event> <kind>`).
      byEvent: costByFunction(r.requests, r.fleet.kcp.server, installs),
      // Calls handled per install by the same names: what the requests per call come from.
      callsByEvent: callsPerInstall(r.callsByEvent, installs),
    },
    edits: {
      ...editSummary(r.edits),
      cost: r.editCounts ? editCost(r.editCounts, r.fleet.kcp.server, r.edits.length, cpus().length) : null,
    },
    busyEdits: editSummary(r.busyEdits),
    idle: idle
      ? idleResult(idle, r.idleSettled ?? true, kcpControllers, readyKymas, cpus().length, r.idleDriftChecks)
      : null,
    resources: {
      functions: {
        cpuSeconds: round(r.convergenceCost.self.cpuSeconds, 1),
        cpuSecondsPerInstall: round(r.convergenceCost.self.cpuSeconds / Math.max(1, installs), 3),
        peakRssMiB: round((idle ?? r.convergenceCost).self.peakRssBytes / MIB, 0),
        atConvergence: {
          ...r.footprint,
          rssMiB: round(r.convergenceCost.self.rssBytes / MIB, 0),
          // The peak so far (VmHWM): tells a peak during convergence from one in the edits or the idle window.
          peakRssMiB: round(r.convergenceCost.self.peakRssBytes / MIB, 0),
        },
        afterConvergence: r.memory ?? [],
      },
      byRole: Object.fromEntries(
        Object.entries(usageByRole(r.convergenceCost.processes)).map(([role, u]) => [
          role,
          {
            processes: u.processes,
            cpuSeconds: round(u.cpuSeconds, 1),
            cpuSecondsPerInstall: round(u.cpuSeconds / Math.max(1, installs), 3),
            peakRssMiB: round(u.peakRssBytes / MIB, 0),
          },
        ]),
      ),
      processes: Object.fromEntries(
        Object.entries(r.convergenceCost.processes).map(([name, u]) => [
          name,
          {
            cpuSeconds: round(u.cpuSeconds, 1),
            peakRssMiB: round((idle?.processes[name]?.peakRssBytes ?? u.peakRssBytes) / MIB, 0),
          },
        ]),
      ),
    },
    ceiling: {
      kcpCreatesPerSecond: round(r.ceiling.writesPerSecond, 1),
      seconds: round(r.ceiling.seconds, 1),
      p50Ms: round(r.ceiling.p50Ms, 1),
      p99Ms: round(r.ceiling.p99Ms, 1),
      errors: r.ceiling.errors,
      kcpWritesPerSecondDuringConvergence: round(kcpWritesPerSecond, 1),
      convergenceFractionOfCeiling: round(r.settings.kymas / seconds / allowedKymasPerSecond, 3),
    },
    broker: r.broker ?? null,
    calls: r.calls ?? null,
    endState: r.endState ?? null,
    release: r.release ?? null,
    flapping: r.flapped ? { changedObjects: r.flapped.length, examples: r.flapped.slice(0, 10) } : null,
  };
}

const KNATIVE_SETUP = (instances: number) =>
  `each function in ${instances === 1 ? 'a process' : `${instances} processes`} of its own (its image's entry point, functions/<name>/start.ts, with manifests/config.yaml's settings), each process taking its Service's containerConcurrency calls at once and the rest queued (a stand-in for Serving's queue-proxy); Knative Eventing's own ApiServerSource and PingSource adapters, multi-tenant channel-based Broker (ingress, filter) on the in-memory channel; the runtime watch, the cluster DNS and Service proxy in the bench's process`;

/** Whether early Kymas finish early: per-Kyma p50 as a share of the whole run, and when the first tenth of the Kymas
 * created were all Ready, as a share of it (null while one of them is not Ready). */
function fairness(r: RunInputs, perKyma: number[], seconds: number) {
  const first = [...r.created.entries()]
    .sort((a, b) => a[1] - b[1])
    .slice(0, Math.max(1, Math.ceil(r.created.size / 10)));
  const readyAt = first.map(([name]) => r.tracker.kymaReady.get(name));
  const allReady = readyAt.every((t) => t !== undefined);
  return {
    perKymaP50ShareOfRun: round(percentile(perKyma, 50) / seconds),
    firstTenthReadyAtShareOfRun:
      allReady && first.length ? round((Math.max(...readyAt.map(Number)) - r.started) / 1000 / seconds) : null,
  };
}

/** When 25/50/75/100 % of the module installs were Ready, in seconds from creating the first Kyma: the shape of the run. */
function installsReadyAfter(r: RunInputs) {
  const times = [...r.tracker.moduleReady.entries()]
    .filter(([key]) => r.fleet.modules.includes(key.split('/')[1] ?? ''))
    .map(([, at]) => (at - r.started) / 1000)
    .sort((a, b) => a - b);
  return Object.fromEntries([25, 50, 75, 100].map((p) => [`${p}%`, round(percentile(times, p), 1)]));
}

/** Requests and writes per module install: all the API server served, and the lifecycle manager's own (without the
 * controllers' and without the bench's own `benchWrites`). */
function costPer(summary: Cost['kcp'], installs: number, controllers: RegExp, benchWrites: number) {
  const own = ownWrites(summary.byVerbResource, controllers) - benchWrites;
  const ownAll = ownRequests(summary.byVerbResource, controllers) - benchWrites;
  return {
    requests: summary.total,
    writes: summary.writes,
    ownWrites: own,
    ownRequests: ownAll,
    conflicts: summary.byCode['409'] ?? 0,
    conflictsBy: top(summary.conflictsByVerbResource, 4),
    perModuleInstall: {
      requests: round(summary.total / installs),
      writes: round(summary.writes / installs),
      ownWrites: round(own / installs),
      ownRequests: round(ownAll / installs),
    },
    byVerb: summary.byVerb,
    topByVerbResource: top(summary.byVerbResource, 12),
    writesByVerbResource: top(summary.writesByVerbResource, Infinity),
  };
}

async function machine(fleet: Fleet) {
  const version = await promisify(execFile)(fleet.plane.binaries['kube-apiserver'], ['--version']).then(
    (r) => r.stdout.trim(),
    () => 'unknown',
  );
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 1024 ** 3, 1),
    node: process.version,
    heapLimitMiB: round(getHeapStatistics().heap_size_limit / MIB, 0),
    kubernetes: version,
    platform: `${process.platform}/${process.arch}`,
  };
}
