import { describe, expect, it } from 'vitest';
import { growthRows, growthTable } from './growth.ts';
import type { BenchResult } from './result.ts';

const run = (
  kymas: number,
  when: string,
  over: { rollouts?: 'real' | 'simulated'; timedOut?: boolean; engine?: 'knative'; instances?: number } = {},
) =>
  ({
    when,
    code: 'abc1234',
    settings: {
      kymas,
      modules: 5,
      rollouts: over.rollouts ?? 'simulated',
      runtimePerKyma: false,
      ...(over.engine ? { engine: over.engine, instances: over.instances ?? 1 } : {}),
    },
    convergence: {
      timedOut: over.timedOut ?? false,
      seconds: kymas,
      installsReady: kymas * 5,
      manifests: kymas * 5,
      moduleInstallsPerSecond: 5,
      perKymaSeconds: { p50: kymas / 2 },
      fairness: { perKymaP50ShareOfRun: 0.5, firstTenthReadyAtShareOfRun: over.timedOut ? null : 0.2 },
    },
    apiCost: {
      kcp: { perModuleInstall: { ownRequests: 4.5, ownWrites: 3.5 } },
      runtimes: { perModuleInstall: { ownRequests: 14, ownWrites: 7 } },
    },
    resources: { functions: { cpuSecondsPerInstall: 0.05, peakRssMiB: 500 } },
  }) as unknown as BenchResult;

describe('growth table', () => {
  it('takes the newest run per fleet size of one shape, smallest first', () => {
    const rows = growthRows(
      [
        run(1000, '2026-11-25T12:00:00Z'),
        run(300, '2026-11-25T10:00:00Z'),
        run(300, '2026-11-25T11:00:00Z'),
        run(5000, '2026-11-25T13:00:00Z', { rollouts: 'real' }),
      ],
      { modules: 5, rollouts: 'simulated', runtimePerKyma: false },
    );
    expect(rows.map((r) => [r.settings.kymas, r.when])).toEqual([
      [300, '2026-11-25T11:00:00Z'],
      [1000, '2026-11-25T12:00:00Z'],
    ]);
  });

  it("keeps runs through Knative, and each instance count, apart from the local runner's", () => {
    const results = [
      run(300, '2026-11-25T10:00:00Z'),
      run(300, '2026-11-25T11:00:00Z', { engine: 'knative' }),
      run(300, '2026-11-25T12:00:00Z', { engine: 'knative', instances: 3 }),
    ];
    const shape = { modules: 5, rollouts: 'simulated' as const, runtimePerKyma: false };
    expect(growthRows(results, shape).map((r) => r.when)).toEqual(['2026-11-25T10:00:00Z']);
    expect(growthRows(results, { ...shape, engine: 'knative', instances: 1 }).map((r) => r.when)).toEqual([
      '2026-11-25T11:00:00Z',
    ]);
    expect(growthRows(results, { ...shape, engine: 'knative', instances: 3 }).map((r) => r.when)).toEqual([
      '2026-11-25T12:00:00Z',
    ]);
  });

  it('skips result files that are not bench runs (the side-by-side JSONs)', () => {
    const sideBySide = { mode: 'project', kymas: 20 } as unknown as BenchResult;
    expect(
      growthRows([sideBySide, run(300, '2026-11-25T10:00:00Z')], {
        modules: 5,
        rollouts: 'simulated',
        runtimePerKyma: false,
      }),
    ).toHaveLength(1);
  });

  it('says how far a bounded run got', () => {
    const table = growthTable([
      run(300, '2026-11-25T11:00:00Z'),
      run(5000, '2026-11-25T13:00:00Z', { timedOut: true }),
    ]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[2]).toContain(
      '| 300 × 5 | 2026-11-25T11:00 (abc1234) | 300 s | 5 | 150 s (0.5) | 0.2 of the run | 4.5 / 3.5 | 14 / 7 |',
    );
    expect(table[3]).toContain('| no: 25000/25000 installs in 5000 s |');
    expect(table[3]).toContain('| not yet |');
  });

  it('shows dashes for a run from before fairness was measured, as the committed 2026-11-23 results are', () => {
    const old = run(300, '2026-11-23T11:00:00Z');
    delete (old.convergence as Partial<BenchResult['convergence']>).fairness;
    expect(growthTable([old])).toContain(
      '| 300 × 5 | 2026-11-23T11:00 (abc1234) | 300 s | 5 | 150 s (–) | – | 4.5 / 3.5 |',
    );
  });
});
