import { afterEach, describe, expect, it } from 'vitest';
import { functionMetrics } from '../../shared/host/metrics.ts';
import { asCaller, countRequests, tally } from '../../shared/kube/request-tally.ts';
import { callsOf } from './function-pods.ts';

afterEach(() => countRequests(false));

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
    expect(callsOf(text)).toEqual({ byStatus: { 204: 40, 503: 3 }, busySeconds: 2.5, requests: [] });
    expect(callsOf('')).toEqual({ byStatus: {}, busySeconds: 0, requests: [] });
  });

  it('reads the requests it counted by function, API server, verb and resource, labels unescaped', () => {
    const text = [
      '# TYPE lifecycle_kube_requests_total counter',
      'lifecycle_kube_requests_total{caller="apply-remote (drift)",server="https://rt-1:6443",verb="apply",resource="namespaces"} 12',
      'lifecycle_kube_requests_total{caller="a \\"quoted\\" caller",server="https://kcp",verb="get",resource="kymas.operator.kyma-project.io"} 3',
    ].join('\n');
    expect(callsOf(text).requests).toEqual([
      { caller: 'apply-remote (drift)', server: 'https://rt-1:6443', verb: 'apply', resource: 'namespaces', count: 12 },
      {
        caller: 'a "quoted" caller',
        server: 'https://kcp',
        verb: 'get',
        resource: 'kymas.operator.kyma-project.io',
        count: 3,
      },
    ]);
  });

  it('reads back what a function process served on /metrics while counting, and nothing while not', async () => {
    const metrics = functionMetrics('aggregate-status');
    expect(callsOf(await metrics.scrape()).requests).toEqual([]);
    countRequests(true);
    await asCaller('aggregate-status', async () => {
      tally('https://rt-1', 'PATCH', '/api/v1/namespaces/kyma-system?fieldManager=x', 'application/apply-patch+yaml');
      tally('https://rt-1', 'PATCH', '/api/v1/namespaces/kyma-system?fieldManager=x', 'application/apply-patch+yaml');
      tally('https://kcp', 'GET', '/apis/operator.kyma-project.io/v1beta2/namespaces/kcp-system/kymas/k1', '');
    });
    expect(callsOf(await metrics.scrape()).requests).toEqual([
      { caller: 'aggregate-status', server: 'https://rt-1', verb: 'apply', resource: 'namespaces', count: 2 },
      {
        caller: 'aggregate-status',
        server: 'https://kcp',
        verb: 'get',
        resource: 'kymas.operator.kyma-project.io',
        count: 1,
      },
    ]);
  });
});
