// `npm run bench:start-up` at its smallest (so the instrument cannot rot): a real KCP, `node local/start.ts` against
// it; the figures must be there and sane, not small (speed is never asserted in tests).
import { describe, expect, it } from 'vitest';
import { runScript } from './run-script.ts';

const runStartUpBench = (args: string[]) => runScript('bench/start-up.ts', args);

describe('npm run bench:start-up (smallest size)', () => {
  it('starts the lifecycle manager against a KCP and reports its CPU and RSS', async () => {
    const { code, stdout, stderr } = await runStartUpBench([
      '--starts',
      '2',
      '--runtimes',
      '1',
      '--settle-seconds',
      '0',
    ]);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      starts: number;
      runtimes: number;
      cpuSeconds: { median: number; min: number; max: number };
      rssMiB: { median: number };
    };
    expect(result).toMatchObject({ starts: 2, runtimes: 1 });
    expect(result.cpuSeconds.min).toBeGreaterThan(0);
    expect(result.cpuSeconds.max).toBeGreaterThanOrEqual(result.cpuSeconds.median);
    expect(result.rssMiB.median).toBeGreaterThan(20);
    expect(stderr).toMatch(/start 2\/2: [\d.]+ CPU s, \d+ MiB/);
  }, 300_000);

  it('refuses a count that is not a whole number, before starting anything', async () => {
    const { code, stderr } = await runStartUpBench(['--starts', 'many']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--starts must be a whole number ≥ 1, not many/);
  });
});
