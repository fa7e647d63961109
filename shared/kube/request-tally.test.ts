import { describe, expect, it } from 'vitest';
import {
  asCaller,
  callerName,
  countRequests,
  functionOfCaller,
  requestShape,
  requestTally,
  tally,
  tallyConnection,
} from './request-tally.ts';

describe('requestShape', () => {
  it("names verb and resource as the API server's metrics do", () => {
    expect(requestShape('GET', '/apis/apps/v1/namespaces/kyma-system/deployments/alpha-manager')).toEqual({
      verb: 'get',
      resource: 'deployments.apps',
    });
    expect(requestShape('GET', '/api/v1/namespaces/kcp-system/secrets?labelSelector=a%3Db')).toEqual({
      verb: 'list',
      resource: 'secrets',
    });
    expect(requestShape('GET', '/api/v1/namespaces/kyma-system')).toEqual({ verb: 'get', resource: 'namespaces' });
    expect(requestShape('GET', '/apis/operator.kyma-project.io/v1beta2/manifests?watch=1&resourceVersion=5')).toEqual({
      verb: 'watch',
      resource: 'manifests.operator.kyma-project.io',
    });
    expect(
      requestShape(
        'PATCH',
        '/apis/operator.kyma-project.io/v1beta2/namespaces/kcp-system/kymas/k1/status?fieldManager=x',
        'application/apply-patch+yaml',
      ),
    ).toEqual({ verb: 'apply', resource: 'kymas.operator.kyma-project.io/status' });
    expect(
      requestShape(
        'PATCH',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/x',
        'application/merge-patch+json',
      ),
    ).toEqual({ verb: 'patch', resource: 'customresourcedefinitions.apiextensions.k8s.io' });
    expect(requestShape('POST', '/api/v1/namespaces/kcp-system/events')).toEqual({
      verb: 'create',
      resource: 'events',
    });
    expect(requestShape('GET', '/apis/operator.kyma-project.io/v1beta2')).toEqual({
      verb: 'list',
      resource: 'discovery.operator.kyma-project.io',
    });
    expect(requestShape('GET', '/openapi/v3')).toEqual({ verb: 'get', resource: '/openapi/v3' });
  });
});

describe('request tally', () => {
  it('counts by calling function only while counting is on', async () => {
    tally('https://kcp', 'GET', '/api/v1/namespaces/a/secrets/s', '');
    countRequests(true);
    await asCaller('purge', async () => tally('https://kcp', 'DELETE', '/api/v1/namespaces/a/secrets/s', ''));
    tally('https://kcp', 'DELETE', '/api/v1/namespaces/a/secrets/s', '');
    expect(requestTally()).toEqual([
      { caller: 'purge', server: 'https://kcp', verb: 'delete', resource: 'secrets', count: 1 },
      { caller: 'other', server: 'https://kcp', verb: 'delete', resource: 'secrets', count: 1 },
    ]);
    countRequests(false);
    expect(requestTally()).toEqual([]);
  });
});

describe('connection tally', () => {
  it('counts a socket still connecting (a new connection), not a kept-alive one', async () => {
    countRequests(true);
    await asCaller('apply-remote', async () => {
      tallyConnection('https://rt-1', { connecting: true });
      tallyConnection('https://rt-1', { connecting: false });
    });
    expect(requestTally()).toEqual([
      { caller: 'apply-remote', server: 'https://rt-1', verb: 'connect', resource: 'tls', count: 1 },
    ]);
    countRequests(false);
  });
});

describe('callerName', () => {
  it('names a call by its function and event, a drift check by its function only, and maps back to the function', () => {
    const resync = callerName('aggregate-status', false, 'io.kyma-project.lifecycle.resync.due', 'Kyma');
    expect(resync).toBe('aggregate-status ← resync.due Kyma');
    const add = callerName('apply-remote', false, 'dev.knative.apiserver.resource.add', 'Manifest');
    expect(add).toBe('apply-remote ← resource.add Manifest');
    expect(callerName('resync', false, 'dev.knative.sources.ping', '')).toBe('resync ← sources.ping');
    const drift = callerName('apply-remote', true, 'io.kyma-project.lifecycle.resync.due', 'Manifest');
    expect(drift).toBe('apply-remote (drift)');
    expect([resync, add, drift, 'other'].map(functionOfCaller)).toEqual([
      'aggregate-status',
      'apply-remote',
      'apply-remote (drift)',
      'other',
    ]);
  });
});
