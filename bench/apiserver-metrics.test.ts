import { describe, expect, it } from 'vitest';
import {
  diffCounters,
  parseGauge,
  parseRequestCounters,
  parseSamples,
  summarise,
  type RequestCounter,
} from './apiserver-metrics.ts';

// Lines as a kube-apiserver 1.36.3 serves them (scraped from the repo's control plane), plus two hand-made series:
// one with escaped label values and one with a timestamp, which the exposition format allows.
const METRICS = String.raw`# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.
# TYPE apiserver_current_inflight_requests gauge
apiserver_current_inflight_requests{request_kind="mutating"} 5
apiserver_current_inflight_requests{request_kind="readOnly"} 30
# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.
# TYPE apiserver_request_duration_seconds histogram
apiserver_request_duration_seconds_bucket{component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1",le="0.005"} 2
# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.
# TYPE apiserver_request_total counter
apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 3
apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="openapi/v3",verb="GET",version=""} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="DELETE",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="DELETE",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PATCH",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="PUT",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="flowcontrol.apiserver.k8s.io",resource="flowschemas",scope="resource",subresource="status",verb="APPLY",version="v1"} 14
apiserver_request_total{code="200",component="apiserver",dry_run="",group="operator.kyma-project.io",resource="kymas",scope="resource",subresource="status",verb="APPLY",version="v1beta2"} 7
apiserver_request_total{code="200",component="apiserver",dry_run="",group="operator.kyma-project.io",resource="kymas",scope="resource",subresource="status",verb="APPLY",version="v1beta1"} 2
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="APPLY",version="v1"} 1
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 3
apiserver_request_total{code="201",component="apiserver",dry_run="All",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 1
apiserver_request_total{code="404",component="apiserver",dry_run="",group="",resource="namespaces",scope="resource",subresource="",verb="GET",version="v1"} 1
apiserver_request_total{code="409",component="apiserver",dry_run="",group="",resource="secrets",scope="resource",subresource="",verb="POST",version="v1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="WATCH",version="v1"} 4 1767225600000
apiserver_request_total{code="200",component="apiserver",dry_run="",group="ex\"am\\ple.io",resource="odd",scope="resource",subresource="a\nb",verb="GET",version="v1"} 2
# HELP apiserver_request_terminations_total [ALPHA] Number of requests which apiserver terminated in self-defense.
# TYPE apiserver_request_terminations_total counter
apiserver_request_terminations_total{code="429",component="apiserver",group="",resource="configmaps",scope="resource",subresource="",verb="POST",version="v1"} 9
`;

const find = (counters: RequestCounter[], verb: string, resource: string, code = 200) =>
  counters.find((c) => c.verb === verb && c.resource === resource && c.code === code && !c.dryRun)?.value;

describe('parseSamples', () => {
  it('reads only the exact metric, unescapes label values and ignores timestamps', () => {
    const samples = parseSamples(METRICS, 'apiserver_request_total');
    expect(samples).toHaveLength(17);
    expect(samples.find((s) => s.labels.resource === 'odd')?.labels).toMatchObject({
      group: 'ex"am\\ple.io',
      subresource: 'a\nb',
    });
    expect(samples.find((s) => s.labels.resource === 'pods')?.value).toBe(4);
  });

  it('reads series without labels and skips values that are not numbers', () => {
    expect(
      parseSamples('process_cpu_seconds_total 12.5\nprocess_cpu_seconds_total{a="b"}\n', 'process_cpu_seconds_total'),
    ).toEqual([{ labels: {}, value: 12.5 }]);
  });
});

describe('parseGauge', () => {
  it('sums the series whose labels match', () => {
    expect(parseGauge(METRICS, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(5);
    expect(parseGauge(METRICS, 'apiserver_current_inflight_requests')).toBe(35);
    expect(parseGauge(METRICS, 'apiserver_longrunning_requests')).toBeUndefined();
  });
});

describe('parseRequestCounters', () => {
  const counters = parseRequestCounters(METRICS);

  it('names resources plural[.group][/subresource] and lower-cases verbs', () => {
    expect(find(counters, 'apply', 'flowschemas.flowcontrol.apiserver.k8s.io/status')).toBe(14);
    expect(find(counters, 'post', 'configmaps', 201)).toBe(3);
    expect(find(counters, 'post', 'secrets', 409)).toBe(1);
    expect(find(counters, 'watch', 'pods')).toBe(4);
    expect(find(counters, 'get', 'odd.ex"am\\ple.io/a\nb')).toBe(2);
  });

  it('folds API versions of the same resource together', () => {
    expect(find(counters, 'apply', 'kymas.operator.kyma-project.io/status')).toBe(9);
  });

  it('tells a deletecollection (DELETE without a name) from a delete', () => {
    expect(find(counters, 'delete', 'configmaps')).toBe(1);
    expect(find(counters, 'deletecollection', 'configmaps')).toBe(1);
  });

  it('keeps dry runs apart and non-resource requests under their path', () => {
    expect(counters.find((c) => c.verb === 'post' && c.dryRun)).toMatchObject({ resource: 'configmaps', value: 1 });
    expect(find(counters, 'get', '/readyz')).toBe(3);
    expect(find(counters, 'get', '/openapi/v3')).toBe(1);
  });
});

describe('diffCounters', () => {
  const c = (verb: string, resource: string, value: number, code = 200): RequestCounter => ({
    verb,
    resource,
    code,
    dryRun: false,
    value,
  });

  it('subtracts per series, keeps new series whole and drops unchanged ones', () => {
    const before = [c('get', 'secrets', 10), c('list', 'secrets', 4), c('get', 'secrets', 1, 404)];
    const after = [
      c('get', 'secrets', 15),
      c('list', 'secrets', 4),
      c('get', 'secrets', 1, 404),
      c('apply', 'kymas.operator.kyma-project.io', 2),
    ];
    expect(diffCounters(before, after)).toEqual([
      c('get', 'secrets', 5),
      c('apply', 'kymas.operator.kyma-project.io', 2),
    ]);
  });

  it('counts from zero when a counter went down (the apiserver restarted)', () => {
    expect(diffCounters([c('get', 'secrets', 10)], [c('get', 'secrets', 3)])).toEqual([c('get', 'secrets', 3)]);
  });
});

describe('summarise', () => {
  it('counts writes without dry runs and breaks the total down', () => {
    const summary = summarise(parseRequestCounters(METRICS));
    expect(summary.total).toBe(45);
    expect(summary.writes).toBe(1 + 1 + 1 + 1 + 14 + 9 + 1 + 3 + 1);
    expect(summary.byVerb).toMatchObject({ get: 7, post: 5, apply: 24, deletecollection: 1, delete: 1, watch: 4 });
    expect(summary.byVerbResource['apply kymas.operator.kyma-project.io/status']).toBe(9);
    expect(summary.byCode).toMatchObject({ 201: 5, 404: 1, 409: 1 });
    expect(summary.conflictsByVerbResource).toEqual({ 'post secrets': 1 });
    const writes = Object.values(summary.writesByVerbResource).reduce((n, v) => n + v, 0);
    expect(writes, 'every write by verb and resource, no read, no dry run').toBe(summary.writes);
    expect(summary.writesByVerbResource['apply kymas.operator.kyma-project.io/status']).toBe(9);
    expect(Object.keys(summary.writesByVerbResource).filter((k) => /^(get|list|watch) /.test(k))).toEqual([]);
  });

  it('is all zeros for no requests', () => {
    expect(summarise([])).toEqual({
      total: 0,
      writes: 0,
      byVerb: {},
      byVerbResource: {},
      byCode: {},
      writesByVerbResource: {},
      conflictsByVerbResource: {},
    });
  });
});
