import { describe, expect, it } from 'vitest';
import { callsPerInstall, costByFunction, requestsSince } from './by-function.ts';

describe('costByFunction', () => {
  it("splits each function's requests per install into KCP and runtime, requests and writes, with its top requests", () => {
    const rows = [
      {
        caller: 'apply-remote',
        server: 'https://kcp',
        verb: 'apply',
        resource: 'manifests.operator.kyma-project.io/status',
        count: 20,
      },
      { caller: 'apply-remote', server: 'https://rt-1', verb: 'get', resource: 'deployments.apps', count: 15 },
      { caller: 'apply-remote', server: 'https://rt-2', verb: 'get', resource: 'deployments.apps', count: 5 },
      { caller: 'apply-remote', server: 'https://rt-1', verb: 'apply', resource: 'configmaps', count: 10 },
      {
        caller: 'resync',
        server: 'https://kcp',
        verb: 'list',
        resource: 'manifests.operator.kyma-project.io',
        count: 1,
      },
      { caller: 'apply-remote', server: 'https://rt-1', verb: 'connect', resource: 'tls', count: 4 },
    ];
    const cost = costByFunction(rows, 'https://kcp', 10);
    expect(Object.keys(cost)).toEqual(['apply-remote', 'resync']);
    expect(cost['apply-remote']).toEqual({
      kcp: {
        requests: 2,
        writes: 2,
        connections: 0,
        top: { 'apply manifests.operator.kyma-project.io/status': 2 },
        writesByVerbResource: { 'apply manifests.operator.kyma-project.io/status': 20 },
      },
      runtimes: {
        requests: 3,
        writes: 1,
        connections: 0.4,
        top: { 'get deployments.apps': 2, 'apply configmaps': 1 },
        writesByVerbResource: { 'apply configmaps': 10 },
      },
    });
    expect(cost['resync']?.kcp).toEqual({
      requests: 0.1,
      writes: 0,
      connections: 0,
      top: { 'list manifests.operator.kyma-project.io': 0.1 },
      writesByVerbResource: {},
    });
  });

  it('takes what the function processes counted between two readings, row by row', () => {
    const row = (caller: string, verb: string, count: number) => ({
      caller,
      server: 'https://rt-1',
      verb,
      resource: 'namespaces',
      count,
    });
    const before = [row('aggregate-status', 'get', 3), row('apply-remote', 'get', 2)];
    // Two instances of aggregate-status report the same row; apply-remote sent nothing since.
    const now = [row('aggregate-status', 'get', 5), row('aggregate-status', 'get', 4), row('apply-remote', 'get', 2)];
    now.push(row('resolve-template', 'apply', 7));
    expect(requestsSince(now, before)).toEqual([
      row('aggregate-status', 'get', 6),
      row('resolve-template', 'apply', 7),
    ]);
  });
});

describe('callsPerInstall', () => {
  it('gives the calls per install by caller name, most first, leaving out those under 0.01', () => {
    const calls = {
      'render-manifest ← modules.resolved Kyma': 2_400,
      'aggregate-status ← resync.due Kyma': 6_100,
      'apply-remote (drift)': 40,
      'resolve-template ← resource.add Kyma': 1_000,
    };
    expect(callsPerInstall(calls, 5_000)).toEqual({
      'aggregate-status ← resync.due Kyma': 1.22,
      'render-manifest ← modules.resolved Kyma': 0.48,
      'resolve-template ← resource.add Kyma': 0.2,
      'apply-remote (drift)': 0.01,
    });
    expect(Object.keys(callsPerInstall({ 'purge ← resync.due Kyma': 4 }, 5_000))).toEqual([]);
    expect(callsPerInstall({ probe: 3 }, 0), 'no installs: per one').toEqual({ probe: 3 });
  });
});
