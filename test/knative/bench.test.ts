// `npm run bench -- --engine knative` at CI size (issue 35): the same tiny fleet through Knative Eventing's own Broker
// with each function in 1 and then in 3 processes of its own. Both converge to the same end state with no flapping,
// every instance is a real process that answered, and the cost table shows where the time went.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../bench/result.ts';
import { FUNCTIONS } from '../../local/runner/functions.ts';

const FUNCTION_NAMES = Object.keys(FUNCTIONS);

function bench(instances: number): Promise<{ result: BenchResult; files: string[]; output: string }> {
  return new Promise((resolve, reject) => {
    void mkdtemp(join(tmpdir(), `bench-knative-${instances}-`)).then((out) => {
      const args = [
        'bench/run.ts',
        '--engine',
        'knative',
        '--instances',
        String(instances),
        '--kymas',
        '3',
        '--modules',
        '2',
        '--runtimes',
        '1',
        '--edits',
        '1',
        '--idle-seconds',
        '3',
        '--ceiling-seconds',
        '1',
        '--rollouts',
        'simulated',
        '--timeout-seconds',
        '300',
        '--out',
        out,
      ];
      const child = spawn(process.execPath, args, {
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
      child.on('close', (code) => {
        if (code !== 0) return reject(new Error(`bench exited ${code}: ${output.slice(-3000)}`));
        void readdir(out).then(async (files) => {
          const json = files.find((f) => f.endsWith(`-3x2-knative-${instances}.json`)) ?? '';
          resolve({
            result: JSON.parse(await readFile(join(out, json), 'utf8')) as BenchResult,
            files: files.sort(),
            output,
          });
        }, reject);
      });
    }, reject);
  });
}

describe('npm run bench -- --engine knative (smoke size)', () => {
  let one: BenchResult;

  it("runs each function as its own process behind Knative's Broker and converges", async () => {
    const { result, files, output } = await bench(1);
    one = result;
    expect(files).toContain('growth-2-modules-rollouts-simulated-knative-1.md');
    expect(result.settings).toMatchObject({ engine: 'knative', instances: 1 });
    expect(result.convergence).toMatchObject({ timedOut: false, kymas: 3, ready: 3 });
    expect(result.flapping?.changedObjects).toBe(0);
    expect(result.endState?.kymas).toEqual({ Ready: 3 });
    // Every function answered calls as a process of its own, and Knative's pods are in the cost table.
    for (const fn of FUNCTION_NAMES) expect(result.resources.processes[`${fn}-1`]?.peakRssMiB, fn).toBeGreaterThan(0);
    const applied = result.calls?.['apply-remote']?.[0];
    expect(Object.values(applied?.byStatus ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(applied?.busySeconds).toBeGreaterThan(0);
    expect(result.resources.byRole).toMatchObject({
      functions: { processes: 6 },
      knative: expect.objectContaining({ cpuSeconds: expect.any(Number) }),
    });
    expect(Object.keys(result.resources.processes).some((p) => p.endsWith('mt-broker-filter'))).toBe(true);
    expect(output).toContain('| functions (6 processes) |');
  }, 400_000);

  it('converges to the same end state with 3 processes per function', async () => {
    const { result } = await bench(3);
    expect(result.convergence).toMatchObject({ timedOut: false, ready: 3 });
    expect(result.flapping?.changedObjects).toBe(0);
    expect(result.endState?.digest).toBe(one.endState?.digest);
    for (const fn of FUNCTION_NAMES) expect(result.calls?.[fn], fn).toHaveLength(3);
    expect(result.resources.byRole?.['functions']?.processes).toBe(18);
  }, 400_000);
});
