// `npm run bench:rollout-floor` at its smallest (so the instrument cannot rot): a real runtime API server with its
// controllers, one sample module rolled out; the figures must be there and sane, not small.
import { describe, expect, it } from 'vitest';
import { runScript } from './run-script.ts';

const runFloor = (args: string[]) => runScript('bench/rollout-floor.ts', args);

describe('npm run bench:rollout-floor (smallest size)', () => {
  it('rolls a sample module out on a runtime and reports how long until its Deployment is Available', async () => {
    const { code, stdout, stderr } = await runFloor(['--runtimes', '1', '--modules', '1']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, number>;
    expect(result).toMatchObject({ runtimes: 1, modules: 1, deployments: 1 });
    expect(result.allAvailableSeconds).toBeGreaterThan(0);
    expect(result.allAvailableSeconds).toBeGreaterThanOrEqual(result.appliedSeconds ?? Infinity);
    expect(result.machineBusy).toBeGreaterThanOrEqual(0);
    expect(result.machineBusy).toBeLessThanOrEqual(1);
  }, 300_000);

  it('with --lifecycle also writes the lifecycle CRDs, catalog copies, runtime Kyma and default CR, and says so', async () => {
    const { code, stdout, stderr } = await runFloor(['--runtimes', '1', '--modules', '1', '--lifecycle']);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      lifecycle: boolean;
      allAvailableSeconds: number;
      cpuSeconds: Record<string, number>;
    };
    expect(result.lifecycle).toBe(true);
    expect(result.allAvailableSeconds).toBeGreaterThan(0);
    // The runtime's API server created four CRDs and their objects: it cannot have been idle.
    expect(result.cpuSeconds['runtime kube-apiserver']).toBeGreaterThan(0);
    expect(Object.keys(result.cpuSeconds)).toEqual(expect.arrayContaining(['kcp kube-apiserver', 'runtime etcd']));
  }, 300_000);

  it('refuses more sample modules than there are', async () => {
    const { code, stderr } = await runFloor(['--modules', '12']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/--modules must be a whole number from 1 to 8, not 12/);
  });
});
