import { describe, expect, it } from 'vitest';
import { callsOf } from './function-pods.ts';

describe("a function instance's calls from its /metrics", () => {
  it('counts calls by status and sums the seconds they took', () => {
    const text = [
      '# HELP lifecycle_function_invocations_total Invocations by outcome (HTTP status of the reply contract).',
      'lifecycle_function_invocations_total{fn="apply-remote",status="204"} 40',
      'lifecycle_function_invocations_total{fn="apply-remote",status="503"} 3',
      'lifecycle_function_duration_seconds_bucket{le="0.005",fn="apply-remote"} 1',
      'lifecycle_function_duration_seconds_sum{fn="apply-remote"} 2.5',
      'lifecycle_function_duration_seconds_count{fn="apply-remote"} 43',
    ].join('\n');
    expect(callsOf(text)).toEqual({ byStatus: { 204: 40, 503: 3 }, busySeconds: 2.5 });
    expect(callsOf('')).toEqual({ byStatus: {}, busySeconds: 0 });
  });
});
