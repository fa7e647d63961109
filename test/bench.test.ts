// The CI-sized run of `npm run bench` (so the instrument cannot rot): a real fleet, tiny, end to end through the
// CLI; the numbers must be there and sane, not fast (speed is never asserted in tests).
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../bench/result.ts';

function runBench(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bench/run.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'error' },
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run bench (smoke size)', () => {
  it('measures a tiny fleet end to end and writes the JSON and markdown results', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const { code, output } = await runBench([
      '--kymas',
      '4',
      '--modules',
      '2',
      '--runtimes',
      '2',
      '--edits',
      '2',
      '--busy-edits',
      '1',
      '--idle-seconds',
      '3',
      '--ceiling-seconds',
      '2',
      '--release',
      '--out',
      out,
    ]);
    expect(code, output.slice(-2000)).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files.map((f) => f.replace(/^.*-4x2\./, ''))).toEqual(['json', 'md', 'growth-2-modules-rollouts-real.md']);
    const result = JSON.parse(await readFile(join(out, files[0] ?? ''), 'utf8')) as BenchResult;
    // The growth table over the runs in --out: this one, its row naming the size and its own per-install costs.
    const growth = await readFile(join(out, 'growth-2-modules-rollouts-real.md'), 'utf8');
    expect(growth).toContain('| Kymas × modules |');
    expect(growth).toContain(
      `| 4 × 2 | ${result.when.slice(0, 16)} (${result.code}) | ${result.convergence.seconds} s |`,
    );
    expect(result.convergence).toMatchObject({ kymas: 4, ready: 4, manifests: 8 });
    expect(result.convergence.perKymaSeconds.p50).toBeGreaterThan(0);
    expect(result.apiCost.kcp.writes).toBeGreaterThanOrEqual(
      8 * result.apiCost.designMinimum.kcpWritesPerModuleInstall,
    );
    expect(result.apiCost.runtimes.writes).toBeGreaterThanOrEqual(
      8 * result.apiCost.designMinimum.runtimeWritesPerModuleInstall,
    );
    // The lifecycle manager's own share: at least the Manifests and their statuses, never more than the API server saw.
    for (const side of [result.apiCost.kcp, result.apiCost.runtimes]) {
      expect(side.ownWrites).toBeGreaterThanOrEqual(8 * 2);
      expect(side.ownRequests).toBeGreaterThanOrEqual(side.ownWrites);
      expect(side.ownRequests).toBeLessThan(side.requests);
    }
    expect(result.edits.count).toBe(2);
    const editRows = Object.entries(result.edits.cost?.byEvent ?? {});
    const manifestsWritten = editRows.filter(([who]) => who.startsWith('render-manifest'));
    expect(
      manifestsWritten.reduce((n, [, c]) => n + c.kcp.writes, 0),
      "each edit's cost counts its Manifest's creation",
    ).toBeGreaterThanOrEqual(1);
    expect(result.busyEdits.count).toBe(1);
    expect(result.busyEdits.p50Seconds).toBeGreaterThan(0);
    expect(result.convergence.fairness.perKymaP50ShareOfRun).toBeGreaterThan(0);
    expect(result.convergence.fairness.perKymaP50ShareOfRun).toBeLessThanOrEqual(1);
    expect(result.convergence.fairness.firstTenthReadyAtShareOfRun).toBeGreaterThan(0);
    expect(result.convergence.timedOut).toBe(false);
    expect(result.flapping?.changedObjects).toBe(0);
    expect(result.ceiling.kcpCreatesPerSecond).toBeGreaterThan(0);
    expect(Object.keys(result.resources.processes)).toEqual(
      expect.arrayContaining(['kcp-kube-apiserver', 'kcp-etcd', 'runtime-1-kube-apiserver', 'runtime-2-etcd']),
    );
    expect(result.machine.kubernetes).toMatch(/^Kubernetes v1\.\d+/);
    // The idle window's CPU: the API servers work through it (leases, reads), and the share is of the cores.
    expect(result.idle?.cpu.apiServersSeconds).toBeGreaterThan(0);
    expect(result.idle?.cpu.machineBusyShare).toBeGreaterThan(0);
    expect(result.idle?.cpu.machineBusyShare).toBeLessThanOrEqual(1);
    expect(output).toMatch(/\| idle CPU \| functions \(this process\) [\d.]+ s, API servers [\d.]+ s/);
    expect(output).toContain('| convergence | 4/4 Ready');
    // The release phase: every Kyma upgraded to the new version, and the API rate it took.
    expect(result.release).toMatchObject({
      module: 'alpha',
      version: '1.1.0',
      kymas: 4,
      budget: { kymasPerMinute: 1000, kymasPerRuntimePerMinute: 100 },
    });
    expect(result.release?.upgradedPerMinute.reduce((a, b) => a + b, 0)).toBe(4);
    expect(result.release?.kcpWritesPerSecond).toBeGreaterThan(0);
    expect(output).toContain('| release spread (--release) | alpha → 1.1.0 on 4 Kymas');
  }, 300_000);

  it('reports a run bounded by --timeout-seconds: what was Ready by then, marked as bounded', async () => {
    const out = await mkdtemp(join(tmpdir(), 'bench-bounded-'));
    const { code, output } = await runBench([
      '--kymas',
      '60',
      '--modules',
      '3',
      '--runtimes',
      '1',
      '--edits',
      '0',
      '--ceiling-seconds',
      '1',
      '--timeout-seconds',
      '10',
      '--out',
      out,
    ]);
    expect(code, output.slice(-2000)).toBe(0);
    const files = (await readdir(out)).sort();
    expect(files.map((f) => f.replace(/^.*-60x3-bounded\./, ''))).toEqual([
      'json',
      'md',
      'growth-3-modules-rollouts-real.md',
    ]);
    expect(await readFile(join(out, 'growth-3-modules-rollouts-real.md'), 'utf8')).toMatch(
      /\| 60 × 3 \| .* \| no: \d+\/180 installs in /,
    );
    const result = JSON.parse(await readFile(join(out, files[0] ?? ''), 'utf8')) as BenchResult;
    expect(result.convergence).toMatchObject({ timedOut: true, kymas: 60, manifests: 180 });
    expect(result.convergence.ready).toBeLessThan(60);
    expect(result.convergence.installsReady).toBeLessThan(180);
    expect(result.idle).toBeNull();
    expect(result.flapping).toBeNull();
    expect(output).toContain('| convergence | did not converge within --timeout-seconds');
  }, 300_000);

  it('refuses a size it cannot run, with the usage', async () => {
    const { code, output } = await runBench(['--kymas', '0']);
    expect(code).toBe(2);
    expect(output).toContain('error: --kymas "0": expected a whole number from 1 to 20000');
    expect(output).toContain('npm run bench -- [--kymas N]');
  });
});
