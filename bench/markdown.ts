// The markdown table of one run (what docs/performance.md and the README show). Pure.
import type { BenchResult } from './result.ts';
import { roleOf } from './roles.ts';
import { timelineText } from './edit-timeline.ts';
import type { idleCpu } from './idle-result.ts';
import { memoryMarksText } from './memory-marks.ts';

const round2 = (n: number) => Number(n.toFixed(2));

type PerInstall = BenchResult['apiCost']['kcp']['perModuleInstall'];
const cost = (c: PerInstall) =>
  `${c.requests} requests, ${c.writes} writes; the lifecycle manager's own: ${c.ownRequests ?? '–'} requests, ${c.ownWrites} writes`;

const footprint = (f: BenchResult['resources']['functions']['atConvergence']) =>
  `RSS ${f.rssMiB} MiB${typeof f.peakRssMiB === 'number' ? ` (peak so far ${f.peakRssMiB} MiB)` : ''} (heap ${f.heapUsedMiB} of ${f.heapTotalMiB} MiB, outside it ${f.externalMiB} MiB), ${f.sockets} open sockets`;

export function toMarkdown(r: BenchResult): string {
  const c = r.convergence;
  const rows: [string, string][] = [
    [
      'size',
      `${r.settings.kymas} Kymas × ${r.settings.modules} modules (${c.manifests} Manifests) on ${r.settings.runtimes} runtime API servers${r.settings.runtimePerKyma ? ' (one per Kyma)' : ''}, rollouts ${r.settings.rollouts}, ${r.settings.edits} edits${r.settings.editsOverSeconds ? ` over ${r.settings.editsOverSeconds} s` : ''}${r.settings.editsAtSecond >= 0 ? ` from second ${r.settings.editsAtSecond} of a minute` : ''}${r.settings.busyEdits ? ` (+ ${r.settings.busyEdits} while converging)` : ''}`,
    ],
    [
      'machine',
      `${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ${r.machine.kubernetes}`,
    ],
    [
      'convergence',
      c.timedOut
        ? `did not converge within --timeout-seconds: after ${c.seconds} s ${c.ready}/${c.kymas} Kymas and ${c.installsReady}/${c.manifests} module installs Ready — ${c.kymasPerSecond} Kymas/s, ${c.moduleInstallsPerSecond} module installs/s (API cost below: per install Ready so far)`
        : `${c.ready}/${c.kymas} Ready in ${c.seconds} s — ${c.kymasPerSecond} Kymas/s, ${c.moduleInstallsPerSecond} module installs/s`,
    ],
    [
      'module installs Ready after',
      Object.entries(c.installsReadyAfterSeconds)
        .map(([share, s]) => `${share} at ${s} s`)
        .join(', '),
    ],
    [
      'time to Ready per Kyma',
      `p50 ${c.perKymaSeconds.p50} s, p95 ${c.perKymaSeconds.p95} s, p99 ${c.perKymaSeconds.p99} s, max ${c.perKymaSeconds.max} s`,
    ],
    [
      'fair progress',
      `per-Kyma p50 = ${c.fairness.perKymaP50ShareOfRun} of the run; the first 10 % of Kymas created all Ready at ${c.fairness.firstTenthReadyAtShareOfRun ?? 'never'} of it`,
    ],
    [
      'KCP API cost per module install',
      `${cost(r.apiCost.kcp.perModuleInstall)} — the rest is the bench creating each Kyma and its Secret, and leases (design minimum ${r.apiCost.designMinimum.kcpWritesPerModuleInstall} writes)`,
    ],
    [
      'runtime API cost per module install',
      `${cost(r.apiCost.runtimes.perModuleInstall)} — the rest is the runtime's controllers rolling out (design minimum ${r.apiCost.designMinimum.runtimeWritesPerModuleInstall} writes)`,
    ],
    [
      r.settings.engine === 'knative'
        ? 'own requests per install by function, counted in each function process and here (KCP req/writes, runtime req/writes; connections opened)'
        : 'own requests per install by function (KCP req/writes, runtime req/writes; connections opened)',
      Object.entries(r.apiCost.byFunction)
        .map(
          ([fn, c]) =>
            `${fn} ${c.kcp.requests}/${c.kcp.writes}, ${c.runtimes.requests}/${c.runtimes.writes}; ${round2(c.kcp.connections + c.runtimes.connections)}`,
        )
        .join('; ') || 'not counted',
    ],
    [
      'own requests per install by function and event, where at least 0.01 (KCP req/writes, runtime req/writes)',
      byEvent(r.apiCost.byEvent),
    ],
    [
      'function calls per install by event during convergence, where at least 0.01',
      Object.entries(r.apiCost.callsByEvent)
        .map(([who, n]) => `${who} ${n}`)
        .join('; ') || 'not counted (function processes count their own)',
    ],
    [
      'change latency (runtime Kyma edit → module Ready)',
      r.edits.count
        ? `p50 ${r.edits.p50Seconds} s, p99 ${r.edits.p99Seconds} s over ${r.edits.count} edits`
        : 'no edits',
    ],
    [
      'change latency while the fleet converges',
      r.busyEdits.count
        ? `p50 ${r.busyEdits.p50Seconds} s, p99 ${r.busyEdits.p99Seconds} s over ${r.busyEdits.count} edits`
        : 'no edits',
    ],
    [
      "an edit's hops (p50/p99: resolved, Manifest created, Manifest Ready, module Ready)",
      [r.edits, r.busyEdits]
        .map((e, i) => (e.count ? `${i ? 'converging' : 'idle'}: ${timelineText(e.hops)}` : ''))
        .filter(Boolean)
        .join('; ') || 'no edits',
    ],
    [
      'what an edit after convergence costs until the last is Ready: own requests per edit by function and event (KCP req/writes, runtime req/writes); calls per edit; CPU over the edits',
      editCostText(r.edits.cost, r.machine.cores),
    ],
    [
      'idle load',
      r.idle
        ? `KCP ${r.idle.kcpRequestsPerSecond} req/s (${r.idle.kcpWritesPerSecond} writes/s), runtimes ${r.idle.runtimeRequestsPerSecond} req/s (${r.idle.runtimeOwnRequestsPerSecond} ours, ${r.idle.runtimeWatchesPerSecond ?? '—'} WATCHes) over ${r.idle.seconds} s — ours per 1,000 Ready Kymas: KCP ${r.idle.perThousandKymas.kcpRequestsPerSecond} req/s, runtimes ${r.idle.perThousandKymas.runtimeRequestsPerSecond} req/s; drift period ${r.setup.driftPeriodMinutes} min, resync every ${r.setup.resyncEverySeconds} s${r.idle.startedSettled ? '' : '; the window began with drift checks still running (no idle broker within 120 s)'}`
        : 'not measured (the run did not converge)',
    ],
    ['idle CPU', r.idle ? idleCpuText(r.idle.cpu, r.idle.seconds, r.machine.cores) : 'not measured'],
    [
      "idle: modules' drift checks",
      r.idle?.moduleDriftChecks
        ? `${r.idle.moduleDriftChecks.unchanged ?? 0} found nothing moved and stopped after reading, ${r.idle.moduleDriftChecks.checked ?? 0} rendered and compared in full (ADR 92)`
        : 'not counted (results before ADR 92, or functions in other processes)',
    ],
    [
      "idle: Kymas' drift checks",
      r.idle?.kymaDriftChecks
        ? `${r.idle.kymaDriftChecks.unchanged ?? 0} found nothing moved and stopped after reading, ${r.idle.kymaDriftChecks.checked ?? 0} checked in full (ADR 93)`
        : 'not counted (results before ADR 93, or functions in other processes)',
    ],
    [
      "idle: resolutions' drift checks",
      r.idle?.resolutionDriftChecks
        ? `${r.idle.resolutionDriftChecks.unchanged ?? 0} found what their last reply saw and sent none, ${r.idle.resolutionDriftChecks.replied ?? 0} replied (ADR 95)`
        : 'not counted (results before ADR 95, or functions in other processes)',
    ],
    [
      'release spread (--release)',
      r.release
        ? `${r.release.module} → ${r.release.version} on ${r.release.kymas} Kymas in ${r.release.seconds} s (upgraded per minute: ${r.release.upgradedPerMinute.join(', ')}; budget ${r.release.budget.kymasPerMinute} Kymas/min, ${r.release.budget.kymasPerRuntimePerMinute} per runtime API server); ours meanwhile: KCP ${r.release.kcpRequestsPerSecond} req/s (${r.release.kcpWritesPerSecond} writes/s), runtimes ${r.release.runtimeRequestsPerSecond} req/s`
        : 'not measured (no --release)',
    ],
    ...Object.entries(r.resources.byRole ?? {}).map(([role, u]): [string, string] => [
      role === 'functions' ? `functions (${u.processes} processes)` : `Knative Eventing (${u.processes} pods)`,
      `${u.cpuSeconds} CPU s during convergence (${u.cpuSecondsPerInstall} per module install), peak RSS ${u.peakRssMiB} MiB summed over the processes`,
    ]),
    [
      r.settings.engine === 'knative'
        ? 'this process (bench, runtime watch, cluster DNS and Service proxy)'
        : 'functions (this process)',
      `${r.resources.functions.cpuSeconds} CPU s during convergence (${r.resources.functions.cpuSecondsPerInstall} per module install), peak RSS ${r.resources.functions.peakRssMiB} MiB; at convergence ${footprint(r.resources.functions.atConvergence)}${r.resources.functions.afterConvergence?.length ? `; ${memoryMarksText(r.resources.functions.afterConvergence)}` : ''}`,
    ],
    ...Object.entries(r.resources.processes)
      .filter(([name]) => /kube-apiserver|etcd/.test(name) || roleOf(name))
      .map(([name, u]): [string, string] => [
        name,
        `${u.cpuSeconds} CPU s during convergence, peak RSS ${u.peakRssMiB} MiB`,
      ]),
    [
      'KCP write ceiling',
      `${r.ceiling.kcpCreatesPerSecond} small creates/s sustained (p50 ${r.ceiling.p50Ms} ms, p99 ${r.ceiling.p99Ms} ms); convergence wrote ${r.ceiling.kcpWritesPerSecondDuringConvergence}/s = ${r.ceiling.convergenceFractionOfCeiling} of what the ceiling allows`,
    ],
    r.broker
      ? [
          'events (local broker)',
          `${r.broker.received} received, ${r.broker.delivered} delivered, ${r.broker.coalesced} coalesced, ${r.broker.retries} retries, ${r.broker.deadLettered} dead-lettered${eventTypesText(r.broker.receivedByType)}`,
        ]
      : [
          'calls per function instance (by status; seconds spent in the function)',
          Object.entries(r.calls ?? {})
            .map(
              ([fn, instances]) =>
                `${fn} ${instances
                  .map(
                    (c) =>
                      `${
                        Object.entries(c.byStatus)
                          .map(([status, n]) => `${n}×${status}`)
                          .join('+') || '0'
                      } (${round2(c.busySeconds)} s)`,
                  )
                  .join(' / ')}`,
            )
            .join('; ') || 'not counted',
        ],
    [
      'conflicts (409) during convergence',
      `KCP ${r.apiCost.kcp.conflicts}${conflictsBy(r.apiCost.kcp)}, runtimes ${r.apiCost.runtimes.conflicts}${conflictsBy(r.apiCost.runtimes)}`,
    ],
    [
      'end state',
      r.endState
        ? `digest ${r.endState.digest}: Kymas ${Object.entries(r.endState.kymas)
            .map(([k, n]) => `${n} ${k}`)
            .join(', ')}; ${Object.values(r.endState.manifests).reduce((a, b) => a + b, 0)} Manifests`
        : 'not read (the run did not converge)',
    ],
    [
      'flapping after convergence',
      r.flapping
        ? `${r.flapping.changedObjects} objects changed during the idle window${r.flapping.examples.length ? ` (${r.flapping.examples.slice(0, 3).join('; ')})` : ''}`
        : 'not measured (the run did not converge)',
    ],
    ['server flags', r.serverFlags.join(' ')],
  ];
  return ['| metric | value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v.replaceAll('|', '\\|')} |`)].join(
    '\n',
  );
}

/** PURE. The run's events received by type, most first (absent from results written before 2026-12-05). */
export function eventTypesText(byType: Readonly<Record<string, number>> | undefined): string {
  const rows = Object.entries(byType ?? {}).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return rows.length ? `; received by type: ${rows.map(([type, n]) => `${type} ${n}`).join(', ')}` : '';
}

/** The writes most of the 409s answered, e.g. ` (apply kymas.operator.kyma-project.io/status 120)`. */
function conflictsBy(cost: { conflictsBy?: Record<string, number> }): string {
  const rows = Object.entries(cost.conflictsBy ?? {}).map(([what, n]) => `${what} ${n}`);
  return rows.length ? ` (${rows.join(', ')})` : '';
}

/** The idle window's CPU (absent from results written before 2026-12-04). */
function idleCpuText(cpu: ReturnType<typeof idleCpu> | undefined, seconds: number | null, cores: number): string {
  if (!cpu) return 'not recorded';
  const functions = cpu.functionProcessesSeconds
    ? `this process ${cpu.thisProcessSeconds} s, function processes ${cpu.functionProcessesSeconds} s, Knative ${cpu.knativeSeconds} s`
    : `functions (this process) ${cpu.thisProcessSeconds} s`;
  const share = cpu.machineBusyShare === null ? '—' : `${round2(cpu.machineBusyShare * 100)} %`;
  return `${functions}, API servers ${cpu.apiServersSeconds} s, etcd ${cpu.etcdSeconds} s over ${seconds} s: the run's processes kept the ${cores} cores ${share} busy`;
}

/** The calls by event whose requests per install reach 0.01 on either side (older results have none). */
function byEvent(costs: BenchResult['apiCost']['byEvent'] | undefined): string {
  const rows = Object.entries(costs ?? {}).filter(([, c]) => c.kcp.requests + c.runtimes.requests >= 0.01);
  return (
    rows
      .map(([who, c]) => `${who} ${c.kcp.requests}/${c.kcp.writes}, ${c.runtimes.requests}/${c.runtimes.writes}`)
      .join('; ') || 'not counted'
  );
}

/** The edits' cost row (older results and other engines have none). */
function editCostText(cost: BenchResult['edits']['cost'] | undefined, cores: number): string {
  if (!cost) return 'not counted';
  const calls = Object.entries(cost.callsByEvent).map(([who, n]) => `${who} ${n}`);
  return `${byEvent(cost.byEvent)}; calls: ${calls.join('; ') || 'none'}; ${idleCpuText(cost.cpu, cost.seconds, cores)}`;
}
