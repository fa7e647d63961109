// The shipped alert rules (manifests/components/monitoring) under the real promtool: the rules load, each alert fires
// on its series after its `for` and clears (alert-rules.promtool.yaml), a broken copy fails, every alert is tested and
// has a runbook entry in docs/operating.md, and every metric a rule reads is one the project exports.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { locateMonitoringBinaries } from '../../local/controlplane/binaries.ts';
import { exportedMetricNames } from './exported-metrics.ts';
import { readRule, type RuleSpec } from './rules.ts';

const run = promisify(execFile);
const TESTS = new URL('./alert-rules.promtool.yaml', import.meta.url);
const OPERATING = new URL('../../docs/operating.md', import.meta.url);

let promtool: string;
let spec: RuleSpec;
const alerts = () => spec.groups.flatMap((g) => g.rules);

/** Runs promtool's rule tests against `rules` (a copy of the spec) in a directory of their own; answers the exit. */
async function promtoolTest(rules: object): Promise<{ ok: boolean; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'alert-rules-'));
  await writeFile(join(dir, 'rules.yaml'), stringify(rules));
  await copyFile(TESTS, join(dir, 'tests.yaml'));
  const check = await run(promtool, ['check', 'rules', join(dir, 'rules.yaml')]).catch((e: { stdout: string }) => e);
  if (!('stdout' in check) || /FAILED/.test(String(check.stdout))) return { ok: false, output: String(check.stdout) };
  return run(promtool, ['test', 'rules', join(dir, 'tests.yaml')]).then(
    (r) => ({ ok: true, output: r.stdout }),
    (e: { stdout: string; stderr: string }) => ({ ok: false, output: `${e.stdout}\n${e.stderr}` }),
  );
}

beforeAll(async () => {
  ({ promtool } = await locateMonitoringBinaries());
  const rule = await readRule();
  expect(rule.kind).toBe('PrometheusRule');
  spec = rule.spec;
}, 1_800_000);

describe('alert rules', () => {
  it('load in promtool and pass its tests: each alert fires after its `for`, not before, and clears', async () => {
    const result = await promtoolTest(spec);
    expect(result.output).toContain('SUCCESS');
    expect(result.ok).toBe(true);
  });

  it('a broken copy fails the same tests (an alert that fires too early)', async () => {
    const broken = structuredClone(spec);
    const rule = broken.groups[0]?.rules.find((r) => r.alert === 'KymaNotReady');
    if (!rule) throw new Error('KymaNotReady missing');
    rule.for = '5m';
    const result = await promtoolTest(broken);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('KymaNotReady');
  });

  it('every alert has a promtool test and a runbook entry', async () => {
    const tests = await readFile(TESTS, 'utf8');
    const runbook = await readFile(OPERATING, 'utf8');
    for (const { alert } of alerts()) {
      expect(tests, alert).toContain(`alertname: ${alert}`);
      expect(runbook, alert).toMatch(new RegExp(`\\| \`${alert}\` \\|`));
    }
  });

  it('reads only metrics the fleet component and the functions export', async () => {
    const exported = await exportedMetricNames();
    const read = alerts().flatMap((r) => [...r.expr.matchAll(/\b(lifecycle_[a-z_]+)\b/g)].map((m) => m[1] ?? ''));
    expect(read.length).toBeGreaterThan(5);
    expect(read.filter((name) => !exported.has(name))).toEqual([]);
  });
});
