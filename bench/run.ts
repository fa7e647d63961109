// `npm run bench -- --kymas N --modules M --runtimes K [--edits E]`: one run on real API servers; writes
// <out>/<timestamp>.json and .md and prints the table. See docs/performance.md "Scale benchmark".
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseBenchArgs, USAGE } from './args.ts';
import { runBench } from './bench.ts';
import { planMarkdown, runPlanBench } from './plan.ts';
import { toMarkdown } from './markdown.ts';
import { growthRows, growthTable, readResults } from './growth.ts';

const say = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
let settings;
try {
  settings = parseBenchArgs(process.argv.slice(2));
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
if (settings.engine === 'knative' && !process.env.KNATIVE_EVENTING_DIR) {
  // Knative's pods need a network namespace of their own and its binaries built: bench/knative.sh sets both up.
  const { spawnSync } = await import('node:child_process');
  const inside = spawnSync('bash', [new URL('./knative.sh', import.meta.url).pathname, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(inside.status ?? 1);
}
if (settings.plan) {
  // --plan: what previewing a release costs (bench/plan.ts); nothing converges, so any size runs in minutes.
  const planned = await runPlanBench(settings, say);
  await mkdir(settings.out, { recursive: true });
  const file = join(settings.out, `${planned.when.replace(/[:.]/g, '-')}-plan-${settings.kymas}x${settings.modules}`);
  await writeFile(`${file}.json`, `${JSON.stringify(planned, null, 2)}\n`);
  await writeFile(`${file}.md`, `${planMarkdown(planned)}\n`);
  console.log(planMarkdown(planned));
  say(`results: ${file}.json, ${file}.md`);
  process.exit(0);
}
const result = await runBench(settings, say);
await mkdir(settings.out, { recursive: true });
const engine = settings.engine === 'knative' ? `-knative-${settings.instances}` : '';
const file = join(
  settings.out,
  `${result.when.replace(/[:.]/g, '-')}-${settings.kymas}x${settings.modules}${engine}${result.convergence.timedOut ? '-bounded' : ''}`,
);
await writeFile(`${file}.json`, `${JSON.stringify(result, null, 2)}\n`);
await writeFile(`${file}.md`, `${toMarkdown(result)}\n`);
console.log(toMarkdown(result));
say(`results: ${file}.json, ${file}.md`);
// The growth table over every committed run of this shape (issue 20), regenerated with each run.
const shape = {
  modules: settings.modules,
  rollouts: settings.rollouts,
  runtimePerKyma: settings.runtimePerKyma,
  engine: settings.engine,
  instances: settings.instances,
};
const growth = growthTable(growthRows(await readResults(settings.out), shape));
const growthFile = join(
  settings.out,
  `growth-${settings.modules}-modules-rollouts-${settings.rollouts}${settings.runtimePerKyma ? '-runtime-per-kyma' : ''}${engine}.md`,
);
await writeFile(growthFile, `${growth}\n`);
console.log(`\n${growth}`);
say(`growth table: ${growthFile}`);
// A stop that was cut short (bench.ts) may leave calls and timers behind: the run is over.
process.exit(0);
