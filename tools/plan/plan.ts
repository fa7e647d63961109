// A plan (issue 25, ADR 39): what a ModuleReleaseMeta or ModuleTemplate change would do to the fleet, before it is
// made — per Kyma resolve-template's answer before and after (its own rules), and for the Kymas whose runtime it
// touches a server-side dry-run there. Reads only; its clients refuse every request that is not a GET or a dry-run.
import type { Kyma, ModuleStatus } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleArtifacts } from '../../shared/oci/module-artifacts.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Observed } from '../../functions/resolve-template/decide.ts';
import { mapBounded } from './bounded.ts';
import { changedCatalog, changedModules, changeOf, describeChange, type Catalog, type ChangeRequest } from './change.ts';
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
  const { namespace } = request;
  const before = await readCatalog(deps.kcp, namespace);
  const change = changeOf(before, request.change);
  const after = changedCatalog(before, change);
  const kymas = await kymasUsing(deps.kcp, namespace, changedModules(change), request.kymas);
  deps.progress(`plan: ${kymas.length} Kymas use ${changedModules(change).join(', ')}`);
  const artifacts = await readArtifacts(deps.artifacts, kymas, [before, after], request.concurrency);
  const windows = new Map(await mapBounded(kymas, request.concurrency, async (k) => [k.metadata.name, await deps.maintenanceOf?.(k)] as const));
  const around: Surroundings = { artifacts, maintenance: (k) => windows.get(k.metadata.name), restrictedModules: deps.restrictedModules };
  const resolved = new Map(kymas.map((k) => [k.metadata.name, resolve(k, after, around)]));
  const planned = kymas.map((kyma) => ({ kyma: kyma.metadata.name, modules: planModules(kyma, resolve(kyma, before, around), resolved.get(kyma.metadata.name) ?? []) }));
  const picks = pickSamples(planned, request.samplePerGroup);
  const manifests = await manifestsByModule(deps.kcp, namespace);
  const byName = new Map(kymas.map((k) => [k.metadata.name, k]));
  const work = planned.flatMap(({ kyma, modules }) => modules.map((module) => ({ kyma: byName.get(kyma) as Kyma, module })));
  let done = 0;
  const rows = await mapBounded(work, request.concurrency, async ({ kyma, module }): Promise<PlanRow> => {
    const pick = picks.get(`${kyma.metadata.name}/${module.module}`);
    const row: PlanRow = { kyma: kyma.metadata.name, ...module };
    delete (row as Partial<ModulePlan>).removes;
    if (!pick) return row;
    if ('sameAs' in pick) return { ...row, runtime: { sameAs: pick.sameAs } };
    const entry = resolved.get(kyma.metadata.name)?.find((m) => m.name === module.module);
    const runtime = await diffOf(deps, kyma, module, entry, { after, artifacts }, manifests.get(`${kyma.metadata.name}/${module.module}`)).catch((e: unknown) => ({ error: messageOf(e) }));
    if (++done % 10 === 0) deps.progress(`plan: ${done} runtime dry-runs done`);
    return { ...row, runtime };
  });
  const changed = new Set(rows.filter((r) => r.outcome !== 'unchanged').map((r) => r.kyma));
  return {
    change: describeChange(change), namespace, kymas: kymas.length, unchanged: kymas.length - changed.size,
    rows: rows.filter((r) => r.outcome !== 'unchanged'), dryRuns: [...picks.values()].filter((p) => 'sample' in p).length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

async function diffOf(deps: PlanDeps, kyma: Kyma, module: ModulePlan, entry: ModuleStatus | undefined, to: { after: Catalog; artifacts: Surroundings['artifacts'] }, current: Manifest | undefined) {
  const runtime = await deps.runtimeOf(kyma.metadata.namespace ?? '', kyma.metadata.name);
  if ('missing' in runtime) return { error: runtime.missing };
  if (module.removes) return current ? removalDiff(runtime, current) : { error: 'no Manifest to remove' };
  if (!entry) return { error: `module ${module.module}: not resolved` };
  const next = nextManifest(kyma, entry, to.after, to.artifacts, deps.registryHost);
  if ('error' in next) return next;
  return upgradeDiff(runtime, deps.moduleYaml, next, current, deps.pullSecret);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
