// The growth table (issue 20): the same figures at each fleet size, from the committed result files — the newest run
// per Kyma count among those of one shape (modules per Kyma, rollouts, runtime layout). Pure but for `readResults`.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchResult } from './result.ts';

type Shape = Pick<BenchResult['settings'], 'modules' | 'rollouts' | 'runtimePerKyma'> &
  Partial<Pick<BenchResult['settings'], 'engine' | 'instances'>>;

const sameShape = (a: Shape, b: Shape) =>
  a.modules === b.modules &&
  (a.rollouts ?? 'real') === (b.rollouts ?? 'real') &&
  Boolean(a.runtimePerKyma) === Boolean(b.runtimePerKyma) &&
  (a.engine ?? 'local') === (b.engine ?? 'local') &&
  (a.instances ?? 1) === (b.instances ?? 1);

/** The newest result per Kyma count of the given shape, smallest fleet first. */
export function growthRows(results: readonly BenchResult[], shape: Shape): BenchResult[] {
  const newest = new Map<number, BenchResult>();
  // Other result files (the side-by-side runs' sbs-*.json) have no bench settings: they are not rows.
  for (const r of results.filter((x) => x.settings && x.convergence && sameShape(x.settings, shape))) {
    const seen = newest.get(r.settings.kymas);
    if (!seen || seen.when < r.when) newest.set(r.settings.kymas, r);
  }
  return [...newest.values()].sort((a, b) => a.settings.kymas - b.settings.kymas);
}

const own = (c: BenchResult['apiCost']['kcp']['perModuleInstall']) => `${c.ownRequests ?? '–'} / ${c.ownWrites}`;

/** The growth table in markdown; per-install costs are the lifecycle manager's own (requests / writes). */
export function growthTable(rows: readonly BenchResult[]): string {
  const header = [
    'Kymas × modules',
    'run (code)',
    'converged',
    'installs/s',
    'per-Kyma p50 (share of run)',
    'first 10 % Ready at',
    'KCP req / writes per install',
    'runtime req / writes per install',
    'functions CPU s / install',
    'functions peak RSS',
  ];
  const lines = rows.map((r) => {
    const c = r.convergence;
    return [
      `${r.settings.kymas} × ${r.settings.modules}`,
      `${r.when.slice(0, 16)} (${r.code ?? '?'})`,
      c.timedOut ? `no: ${c.installsReady}/${c.manifests} installs in ${c.seconds} s` : `${c.seconds} s`,
      String(c.moduleInstallsPerSecond),
      ...fairnessCells(c),
      own(r.apiCost.kcp.perModuleInstall),
      own(r.apiCost.runtimes.perModuleInstall),
      // Through Knative the functions are processes of their own (summed); locally they are the bench's process.
      String(r.resources.byRole?.['functions']?.cpuSecondsPerInstall ?? r.resources.functions.cpuSecondsPerInstall),
      `${r.resources.byRole?.['functions']?.peakRssMiB ?? r.resources.functions.peakRssMiB} MiB`,
    ];
  });
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The per-Kyma p50 and first-tenth cells; a result from before the bench measured fairness (2026-11-25) has dashes. */
function fairnessCells(c: BenchResult['convergence']): [string, string] {
  const fairness = (c as Partial<BenchResult['convergence']>).fairness;
  if (!fairness) return [`${c.perKymaSeconds.p50} s (–)`, '–'];
  const first = fairness.firstTenthReadyAtShareOfRun;
  return [
    `${c.perKymaSeconds.p50} s (${fairness.perKymaP50ShareOfRun})`,
    first === null ? 'not yet' : `${first} of the run`,
  ];
}

/** Every result JSON in `dir`. */
export async function readResults(dir: string): Promise<BenchResult[]> {
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json'));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as BenchResult));
}
