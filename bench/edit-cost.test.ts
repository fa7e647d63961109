import { describe, expect, it } from 'vitest';
import { editCost, editSummary } from './edit-cost.ts';

const usage = (cpuSeconds: number) => ({ cpuSeconds, rssBytes: 0, peakRssBytes: 0 });
const KCP = 'https://kcp';

describe("the edits' numbers", () => {
  it('summarises the latencies and hops of the edits, slowest last', () => {
    const marks = [
      { kyma: 'a', edited: 0, listed: 100, manifest: 200, applied: 1_200, ready: 1_300 },
      { kyma: 'b', edited: 0, listed: 500, manifest: 700, applied: 3_700, ready: 4_000 },
    ];
    const summary = editSummary(marks);
    expect(summary).toMatchObject({ count: 2, p50Seconds: 1.3, p99Seconds: 4, maxSeconds: 4 });
    expect(summary.hops.apply).toEqual({ p50Seconds: 1, p99Seconds: 3 });
    expect(editSummary([])).toMatchObject({ count: 0, maxSeconds: null });
  });

  it('gives the requests and calls per edit by function and event, and the CPU over the edits', () => {
    const row = (caller: string, server: string, verb: string, resource: string, count: number) => ({
      caller,
      server,
      verb,
      resource,
      count,
    });
    const cost = editCost(
      {
        requests: [
          row('apply-remote ← resource.add Manifest', 'https://runtime-1', 'apply', 'deployments.apps', 20),
          row('apply-remote ← resource.add Manifest', KCP, 'patch', 'manifests.operator.kyma-project.io/status', 10),
          row('aggregate-status (drift)', 'https://runtime-1', 'get', 'kymas.operator.kyma-project.io', 5),
        ],
        calls: { 'apply-remote ← resource.add Manifest': 10, 'aggregate-status (drift)': 5 },
        cost: { seconds: 5, self: usage(2), processes: { 'kcp-kube-apiserver': usage(3), 'kcp-etcd': usage(1) } },
      },
      KCP,
      10,
      2,
    );
    expect(cost.byEvent['apply-remote ← resource.add Manifest']).toMatchObject({
      kcp: { requests: 1, writes: 1 },
      runtimes: { requests: 2, writes: 2 },
    });
    expect(cost.byEvent['aggregate-status (drift)']?.runtimes).toMatchObject({ requests: 0.5, writes: 0 });
    expect(cost.callsByEvent).toEqual({ 'apply-remote ← resource.add Manifest': 1, 'aggregate-status (drift)': 0.5 });
    expect(cost.cpu).toMatchObject({
      thisProcessSeconds: 2,
      apiServersSeconds: 3,
      etcdSeconds: 1,
      machineBusyShare: 0.6,
    });
    expect(cost.seconds).toBe(5);
  });
});
