// `npm run bench -- --plan --kymas N [--modules M] [--runtimes K]`: what previewing a release costs (issue 25, ADR 39),
// without converging anything. The bench publishes the modules, creates N Kymas with their kubeconfig Secrets and
// writes each one's status.modules itself — what resolve-template and aggregate-status would have written for an
// installed fleet (resolve-template's own resolveModules, version Ready) — with no function running. Then it plans the
// first module's regular channel moving to a new version, sampled (one dry-run per group) and bounded, and reports
// wall time, CPU, the plan's KCP and runtime requests by verb, and its runtime writes (dry-runs only).
import { API_VERSION, KCP_NAMESPACE } from '../shared/core/vocabulary.ts';
import { readConfig } from '../shared/host/config.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import { countRequests, requestTally, WRITE_VERBS } from '../shared/kube/request-tally.ts';
import { ModuleArtifacts } from '../shared/oci/module-artifacts.ts';
import { RegistryClient } from '../shared/oci/registry.ts';
import { readCatalog, readArtifacts } from '../components/fleet/plan/inputs.ts';
import { planDeps } from '../components/fleet/plan/deps.ts';
import { plan } from '../components/fleet/plan/plan.ts';
import { asResolved, resolve } from '../components/fleet/plan/resolution.ts';
import type { PlanReport } from '../components/fleet/plan/report.ts';
import { mapBounded } from '../components/fleet/plan/bounded.ts';
import type { BenchSettings } from './args.ts';
import { createKymas, kymaName, RELEASE_VERSION, startFleet, type Fleet } from './fleet.ts';

export interface PlanBenchResult {
  kind: 'plan';
  when: string;
  settings: { kymas: number; modules: number; runtimes: number; samplePerGroup: number; concurrency: number };
  setupSeconds: number;
  /** Every Kyma, one runtime dry-run per group of Kymas with the same change. */
  sampled: PlanCost;
  /** The first UNSAMPLED Kymas (by name), every one dry-run. */
  unsampled: PlanCost & { kymas: number };
}

interface PlanCost {
  seconds: number;
  cpuSeconds: number;
  rows: number;
  dryRuns: number;
  outcomes: Record<string, number>;
  /** The plan's requests, by API server (kcp, runtime) and verb; runtime writes are dry-runs (read-only.ts refuses others). */
  requests: Record<string, number>;
  writes: { kcp: number; runtimeDryRuns: number };
}

const UNSAMPLED = 200;

/** Runs one plan with the request tally on: its wall time, CPU and requests. */
async function measured(fleet: Fleet, run: () => Promise<PlanReport>): Promise<PlanCost> {
  countRequests(true);
  const cpu = process.cpuUsage();
  const report = await run();
  const used = process.cpuUsage(cpu);
  const tally = requestTally();
  countRequests(false);
  const where = (server: string) => (server === fleet.kcp.server ? 'kcp' : 'runtime');
  const requests: Record<string, number> = {};
  for (const r of tally)
    requests[`${where(r.server)} ${r.verb}`] = (requests[`${where(r.server)} ${r.verb}`] ?? 0) + r.count;
  const writes = (at: string) =>
    tally.filter((r) => where(r.server) === at && WRITE_VERBS.has(r.verb)).reduce((n, r) => n + r.count, 0);
  return {
    seconds: report.seconds,
    cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
    rows: report.rows.length,
    dryRuns: report.dryRuns,
    outcomes: outcomes(report),
    requests,
    writes: { kcp: writes('kcp'), runtimeDryRuns: writes('runtime') },
  };
}

const SAMPLE_PER_GROUP = 1;
const CONCURRENCY = 8;

export async function runPlanBench(settings: BenchSettings, say: (line: string) => void): Promise<PlanBenchResult> {
  const started = performance.now();
  const fleet = await startFleet({ ...settings, rollouts: 'simulated', release: true, edits: 0, busyEdits: 0 }, say);
  try {
    await createKymas(fleet, settings.kymas, 32, () => undefined);
    await writeInstalledStatus(fleet, settings.kymas);
    const setupSeconds = (performance.now() - started) / 1000;
    say(
      `${settings.kymas} Kymas with an installed status in ${setupSeconds.toFixed(0)} s; planning ${fleet.modules[0]} regular=${RELEASE_VERSION}`,
    );
    const config = readConfig({ LIFECYCLE_OCI_REGISTRY: `http://${fleet.registryHost}` });
    const deps = await planDeps(fleet.kcp, config, say);
    const change = {
      releaseMeta: fleet.modules[0] ?? '',
      setChannels: [{ channel: 'regular', version: RELEASE_VERSION }],
    };
    const sampled = await measured(fleet, () =>
      plan(deps, {
        namespace: KCP_NAMESPACE,
        change,
        kymas: [],
        samplePerGroup: SAMPLE_PER_GROUP,
        concurrency: CONCURRENCY,
      }),
    );
    // The same without sampling, for the first Kymas only: what a dry-run per Kyma costs.
    const some = Array.from({ length: Math.min(UNSAMPLED, settings.kymas) }, (_, i) => kymaName(i));
    const full = await measured(fleet, () =>
      plan(deps, {
        namespace: KCP_NAMESPACE,
        change,
        kymas: some,
        samplePerGroup: undefined,
        concurrency: CONCURRENCY,
      }),
    );
    return {
      kind: 'plan',
      when: new Date().toISOString(),
      settings: {
        kymas: settings.kymas,
        modules: settings.modules,
        runtimes: settings.runtimes,
        samplePerGroup: SAMPLE_PER_GROUP,
        concurrency: CONCURRENCY,
      },
      setupSeconds: Math.round(setupSeconds),
      sampled,
      unsampled: { ...full, kymas: some.length },
    };
  } finally {
    await fleet.plane.stop();
  }
}

/** Each Kyma's status as resolve-template (resolveModules) and aggregate-status would leave an installed fleet. */
async function writeInstalledStatus(fleet: Fleet, count: number): Promise<void> {
  const catalog = await readCatalog(fleet.kcp, KCP_NAMESPACE);
  const registry = new RegistryClient({ host: fleet.registryHost, plainHttp: true });
  const sample = asResolved({
    apiVersion: API_VERSION,
    kind: 'Kyma',
    metadata: { name: kymaName(0), namespace: KCP_NAMESPACE },
    spec: { channel: 'regular', modules: fleet.modules.map((name) => ({ name })) },
  });
  const artifacts = await readArtifacts(new ModuleArtifacts(registry), [sample], [catalog], 4);
  await mapBounded(
    Array.from({ length: count }, (_, i) => kymaName(i)),
    32,
    async (name) => {
      const kyma: Kyma = { ...sample, metadata: { name, namespace: KCP_NAMESPACE } };
      const modules = resolve(kyma, catalog, { artifacts }).map((m) => ({
        ...m,
        version: m.resolution?.version ?? '',
        state: 'Ready' as const,
      }));
      await fleet.kcp.apply(
        {
          apiVersion: API_VERSION,
          kind: 'Kyma',
          metadata: { name, namespace: KCP_NAMESPACE },
          status: { state: 'Ready', modules, specSource: { from: 'runtime', channel: 'regular' } },
        },
        'bench',
        'status',
      );
    },
  );
}

const outcomes = (report: PlanReport) =>
  report.rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.outcome]: (n[r.outcome] ?? 0) + 1 }), {});

export function planMarkdown(r: PlanBenchResult): string {
  const row = (what: string, c: PlanCost) =>
    `| ${what} | ${c.seconds} s | ${c.cpuSeconds} s | ${c.rows} (${Object.entries(c.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}) | ${c.dryRuns} | ${c.writes.kcp} | ${c.writes.runtimeDryRuns} | ${Object.entries(c.requests)
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} |`;
  return [
    `## plan — ${r.settings.kymas} Kymas × ${r.settings.modules} modules, ${r.settings.runtimes} runtime API servers (${r.when})`,
    '',
    `Change planned: the first module's regular channel 1.0.0 → ${RELEASE_VERSION}; --concurrency ${r.settings.concurrency}. Setup (Kymas, Secrets, synthesized status; not part of the plan): ${r.setupSeconds} s.`,
    '',
    '| plan | wall time | CPU | rows | runtime dry-runs | KCP writes | runtime writes (all dryRun=All) | requests |',
    '|---|---|---|---|---|---|---|---|',
    row(`all ${r.settings.kymas} Kymas, --sample-per-group ${r.settings.samplePerGroup}`, r.sampled),
    row(`${r.unsampled.kymas} Kymas (--kyma …), no sampling`, r.unsampled),
  ].join('\n');
}
