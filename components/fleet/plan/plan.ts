// A plan (issue 25, ADR 39): what a ModuleReleaseMeta or ModuleTemplate change would do to the fleet, before it is
// made — per Kyma resolve-template's answer before and after (its own rules), and for the Kymas whose runtime it
// touches a server-side dry-run there. Reads only; its clients refuse every request that is not a GET or a dry-run.
import type { Kyma, ModuleStatus } from '../../../shared/core/kyma.ts';
import type { Manifest } from '../../../shared/core/manifest.ts';
import type { ModuleArtifacts } from '../../../shared/oci/module-artifacts.ts';
import type { KubeClient } from '../../../shared/kube/client.ts';
import type { Observed } from '../../../shared/core/resolution.ts';
import { mapBounded } from './bounded.ts';
import {
  changedCatalog,
  changedModules,
  changeOf,
  describeChange,
  type Catalog,
  type ChangeRequest,
} from './change.ts';
import { planModules, type ModulePlan } from './classify.ts';
import { kymasUsing, manifestsByModule, readArtifacts, readCatalog } from './inputs.ts';
import { nextManifest } from './next-manifest.ts';
import type { PlanReport, PlanRow } from './report.ts';
import { removalDiff, upgradeDiff, type ModuleYaml, type Runtime } from './runtime-diff.ts';
import { resolve, type Surroundings } from './resolution.ts';
import { pickSamples } from './sample.ts';

export interface PlanDeps {
  /** Read-only (read-only.ts). */
  kcp: KubeClient;
  /** The Kyma's runtime, read-only, or why it cannot be used. */
  runtimeOf: (namespace: string, kyma: string) => Promise<Runtime | { missing: string }>;
  artifacts: ModuleArtifacts;
  moduleYaml: ModuleYaml;
  registryHost: string;
  pullSecret: string | undefined;
  /** The Kyma's maintenance window now (resolve-template's MaintenancePolicyFile); absent = windows off. */
  maintenanceOf?: (kyma: Kyma) => Promise<Observed['maintenance']>;
  restrictedModules: readonly string[];
  progress: (line: string) => void;
}

export interface PlanRequest {
  namespace: string;
  change: ChangeRequest;
  kymas: readonly string[];
  /** Dry-run only this many Kymas per group of Kymas with the same change; undefined = every Kyma. */
  samplePerGroup: number | undefined;
  concurrency: number;
}

export async function plan(deps: PlanDeps, request: PlanRequest): Promise<PlanReport> {
  const started = performance.now();
  const resolved = await resolveFleet(deps, request);
  const picks = pickSamples(resolved.planned, request.samplePerGroup);
  const manifests = await manifestsByModule(deps.kcp, request.namespace);
  const work = resolved.planned.flatMap(({ kyma, modules }) =>
    modules.map((module) => ({ kyma: resolved.kymas.get(kyma) as Kyma, module })),
  );
  let done = 0;
  const rows = await mapBounded(work, request.concurrency, async ({ kyma, module }): Promise<PlanRow> => {
    const row = rowOf(kyma, module);
    const pick = picks.get(`${row.kyma}/${row.module}`);
    if (!pick) return row;
    if ('sameAs' in pick) return { ...row, runtime: { sameAs: pick.sameAs } };
    const entry = resolved.after.get(row.kyma)?.find((m) => m.name === row.module);
    const runtime = await diffOf(deps, kyma, module, entry, resolved, manifests.get(`${row.kyma}/${row.module}`)).catch(
      (e: unknown) => ({ error: messageOf(e) }),
    );
    if (++done % 10 === 0) deps.progress(`plan: ${done} runtime dry-runs done`);
    return { ...row, runtime };
  });
  const moved = rows.filter((r) => r.outcome !== 'unchanged');
  return {
    change: resolved.change,
    namespace: request.namespace,
    kymas: resolved.kymas.size,
    unchanged: resolved.kymas.size - new Set(moved.map((r) => r.kyma)).size,
    rows: moved,
    dryRuns: [...picks.values()].filter((p) => 'sample' in p).length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** Every Kyma using a changed module, resolved by resolve-template's rules against the stored and the changed catalog. */
async function resolveFleet(deps: PlanDeps, request: PlanRequest) {
  const before = await readCatalog(deps.kcp, request.namespace);
  const change = changeOf(before, request.change);
  const catalog = changedCatalog(before, change);
  const kymas = await kymasUsing(deps.kcp, request.namespace, changedModules(change), request.kymas);
  deps.progress(`plan: ${kymas.length} Kymas use ${changedModules(change).join(', ')}`);
  const artifacts = await readArtifacts(deps.artifacts, kymas, [before, catalog], request.concurrency);
  const windows = new Map(
    await mapBounded(
      kymas,
      request.concurrency,
      async (k) => [k.metadata.name, await deps.maintenanceOf?.(k)] as const,
    ),
  );
  const around: Surroundings = {
    artifacts,
    maintenance: (k) => windows.get(k.metadata.name),
    restrictedModules: deps.restrictedModules,
  };
  const after = new Map(kymas.map((k) => [k.metadata.name, resolve(k, catalog, around)]));
  const planned = kymas.map((k) => ({
    kyma: k.metadata.name,
    modules: planModules(k, resolve(k, before, around), after.get(k.metadata.name) ?? []),
  }));
  return {
    change: describeChange(change),
    catalog,
    artifacts,
    after,
    planned,
    kymas: new Map(kymas.map((k) => [k.metadata.name, k])),
  };
}

const rowOf = (kyma: Kyma, p: ModulePlan): PlanRow => ({
  kyma: kyma.metadata.name,
  module: p.module,
  outcome: p.outcome,
  from: p.from,
  to: p.to,
  message: p.message,
});

async function diffOf(
  deps: PlanDeps,
  kyma: Kyma,
  module: ModulePlan,
  entry: ModuleStatus | undefined,
  to: { catalog: Catalog; artifacts: Surroundings['artifacts'] },
  current: Manifest | undefined,
) {
  const runtime = await deps.runtimeOf(kyma.metadata.namespace ?? '', kyma.metadata.name);
  if ('missing' in runtime) return { error: runtime.missing };
  if (module.removes) return current ? removalDiff(runtime, current) : { error: 'no Manifest to remove' };
  if (!entry) return { error: `module ${module.module}: not resolved` };
  const next = nextManifest(kyma, entry, to.catalog, to.artifacts, deps.registryHost, current);
  if ('error' in next) return next;
  return upgradeDiff(runtime, deps.moduleYaml, next, current, deps.pullSecret);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
