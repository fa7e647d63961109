import { describe, expect, it } from 'vitest';
import { DEFAULTS, parseBenchArgs } from './args.ts';

describe('bench arguments', () => {
  it('defaults to a run of a few minutes', () => {
    expect(parseBenchArgs([])).toEqual(DEFAULTS);
  });
  it('takes the sizes up to 5,000 Kymas with 5 modules', () => {
    expect(
      parseBenchArgs(['--kymas', '5000', '--modules', '5', '--runtimes', '8', '--edits', '100', '--busy-edits', '50']),
    ).toMatchObject({ kymas: 5000, modules: 5, runtimes: 8, edits: 100, busyEdits: 50 });
  });
  it('makes the edits after convergence all at once unless asked to spread them', () => {
    expect(parseBenchArgs(['--edits', '30']).editsOverSeconds).toBe(0);
    expect(parseBenchArgs(['--edits', '30', '--edits-over-seconds', '60'])).toMatchObject({ editsOverSeconds: 60 });
    expect(parseBenchArgs([]).editsAtSecond, 'as soon as all are Ready').toBe(-1);
    expect(parseBenchArgs(['--edits-at-second', '2'])).toMatchObject({ editsAtSecond: 2 });
    expect(() => parseBenchArgs(['--edits-at-second', '60'])).toThrow('expected a whole number from 0 to 59');
    expect(() => parseBenchArgs(['--edits-over-seconds', '1.5'])).toThrow(
      '--edits-over-seconds "1.5": expected a whole number from 0 to 3600',
    );
  });
  it('simulates rollouts only on request', () => {
    expect(parseBenchArgs(['--rollouts', 'simulated'])).toMatchObject({ rollouts: 'simulated' });
    expect(() => parseBenchArgs(['--rollouts', 'fake'])).toThrow('--rollouts "fake": expected real or simulated');
  });
  it('routes the events through Knative on request, with 1 to 5 processes per function', () => {
    expect(parseBenchArgs([])).toMatchObject({ engine: 'local', instances: 1 });
    expect(parseBenchArgs(['--engine', 'knative', '--instances', '3'])).toMatchObject({
      engine: 'knative',
      instances: 3,
    });
    expect(() => parseBenchArgs(['--engine', 'kafka'])).toThrow('--engine "kafka": expected local or knative');
    expect(() => parseBenchArgs(['--instances', '3'])).toThrow(/only with --engine knative/);
    expect(() => parseBenchArgs(['--engine', 'knative', '--instances', '6'])).toThrow(
      '--instances "6": expected a whole number from 1 to 5',
    );
    expect(() => parseBenchArgs(['--engine', 'knative', '--plan'])).toThrow(/not with --engine knative/);
  });
  it('runs the release phase only on request', () => {
    expect(parseBenchArgs([]).release).toBe(false);
    expect(parseBenchArgs(['--release']).release).toBe(true);
    expect(() => parseBenchArgs(['--release', 'yes'])).toThrow();
  });

  it('lays out one runtime API server per Kyma on request', () => {
    expect(parseBenchArgs(['--kymas', '12', '--modules', '3', '--runtime-per-kyma'])).toMatchObject({
      kymas: 12,
      runtimes: 12,
      runtimePerKyma: true,
    });
    expect(() => parseBenchArgs(['--kymas', '12', '--runtimes', '3', '--runtime-per-kyma'])).toThrow(
      /not with --runtime-per-kyma/,
    );
    expect(() => parseBenchArgs(['--kymas', '41', '--runtime-per-kyma'])).toThrow(/at most 40 Kymas/);
  });
  it('refuses what it cannot run, naming the flag and the range', () => {
    expect(() => parseBenchArgs(['--kymas', '0'])).toThrow('--kymas "0": expected a whole number from 1 to 20000');
    expect(() => parseBenchArgs(['--runtimes', '2.5'])).toThrow(/--runtimes "2.5"/);
    expect(() => parseBenchArgs(['--kymas', '3', '--edits', '4'])).toThrow(/at most one edit per Kyma/);
    expect(() => parseBenchArgs(['--kymaz', '3'])).toThrow(/kymaz/);
    expect(() => parseBenchArgs(['--kymas', '5', '--edits', '3', '--busy-edits', '3'])).toThrow(
      /--busy-edits 3: at most one edit per Kyma/,
    );
  });
});
