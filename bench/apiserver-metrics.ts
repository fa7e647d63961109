import type { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import { get, type TlsMaterial } from '../local/controlplane/probe.ts';

/** One labelled sample of a Prometheus text exposition. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * One `apiserver_request_total` series, folded over version, scope and component. `verb` is the apiserver's label in
 * lower case (`get`, `list`, `watch`, `post`, `put`, `patch`, `apply`, `delete`, `connect`, `other`), except that a
 * DELETE without an object name becomes `deletecollection`. `resource` is `plural[.group][/subresource]`; requests
 * to non-resource URLs (`/readyz`, `/apis`, `/openapi/v3`) keep their path, always with a leading `/`.
 */
export interface RequestCounter {
  verb: string;
  resource: string;
  code: number;
  dryRun: boolean;
  value: number;
}

export interface RequestSummary {
  total: number;
  /** post, put, patch, apply, delete, deletecollection — without dry runs. */
  writes: number;
  byVerb: Record<string, number>;
  /** Keyed `<verb> <resource>`, e.g. `apply kymas.operator.kyma-project.io/status`. */
  byVerbResource: Record<string, number>;
  byCode: Record<string, number>;
  /** The writes among `byVerbResource`, all of them (which instance count wrote what more, issue 35). */
  writesByVerbResource: Record<string, number>;
  /** 409 answers keyed `<verb> <resource>`: which writes lost a race (or created what existed). */
  conflictsByVerbResource: Record<string, number>;
}

const WRITE_VERBS = new Set(['post', 'put', 'patch', 'apply', 'delete', 'deletecollection']);
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

/** The samples of metric `name` (exact name, so `_bucket`/`_sum` series of others never match). */
export function parseSamples(text: string, name: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line.startsWith(name) || !/^[{\s]/.test(line.slice(name.length))) continue;
    const { labels, rest } = parseLabels(line.slice(name.length));
    const value = Number(rest.trim().split(/\s+/)[0] || Number.NaN);
    if (!Number.isNaN(value)) samples.push({ labels, value });
  }
  return samples;
}

function parseLabels(text: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  if (!text.startsWith('{')) return { labels, rest: text };
  let i = 1;
  while (i < text.length && text[i] !== '}') {
    const eq = text.indexOf('="', i);
    if (eq < 0) break;
    const key = text
      .slice(i, eq)
      .replace(/^[\s,]+/, '')
      .trim();
    let value = '';
    for (i = eq + 2; i < text.length && text[i] !== '"'; i++) {
      const c = text[i] ?? '';
      if (c !== '\\') value += c;
      else value += ESCAPES[text[++i] ?? ''] ?? `\\${text[i] ?? ''}`;
    }
    labels[key] = value;
    i++;
    while (i < text.length && (text[i] === ',' || text[i] === ' ')) i++;
  }
  return { labels, rest: text.slice(i + 1) };
}

/** Sum of the samples of gauge `name` whose labels include `match`, e.g. `apiserver_current_inflight_requests`. */
export function parseGauge(text: string, name: string, match: Record<string, string> = {}): number | undefined {
  const hits = parseSamples(text, name).filter((s) => Object.entries(match).every(([k, v]) => s.labels[k] === v));
  return hits.length ? hits.reduce((sum, s) => sum + s.value, 0) : undefined;
}

/** The `apiserver_request_total` counters of a kube-apiserver `/metrics` text, folded per verb/resource/code/dry-run. */
export function parseRequestCounters(text: string): RequestCounter[] {
  const byKey = new Map<string, RequestCounter>();
  for (const { labels, value } of parseSamples(text, 'apiserver_request_total')) {
    const counter = { ...requestOf(labels), value };
    const existing = byKey.get(keyOf(counter));
    if (existing) existing.value += value;
    else byKey.set(keyOf(counter), counter);
  }
  return [...byKey.values()];
}

function requestOf(l: Record<string, string>): Omit<RequestCounter, 'value'> {
  const [resource, sub, group, scope] = [l.resource ?? '', l.subresource ?? '', l.group ?? '', l.scope ?? ''];
  const verb = (l.verb ?? '').toLowerCase();
  const collection = verb === 'delete' && (scope === 'namespace' || scope === 'cluster');
  const name = resource
    ? `${resource}${group ? `.${group}` : ''}${sub ? `/${sub}` : ''}`
    : `/${sub.replace(/^\//, '')}`;
  return { verb: collection ? 'deletecollection' : verb, resource: name, code: Number(l.code), dryRun: !!l.dry_run };
}

const keyOf = (c: Omit<RequestCounter, 'value'>) => `${c.verb} ${c.resource} ${c.code} ${c.dryRun}`;
/** `after − before` per series; a series that went down (apiserver restart) counts from zero; zeros are dropped. */
export function diffCounters(before: RequestCounter[], after: RequestCounter[]): RequestCounter[] {
  const earlier = new Map(before.map((c) => [keyOf(c), c.value]));
  return after
    .map((c) => {
      const was = earlier.get(keyOf(c)) ?? 0;
      return { ...c, value: c.value >= was ? c.value - was : c.value };
    })
    .filter((c) => c.value !== 0);
}

/** Totals of a delta: all requests, writes, and breakdowns by verb, verb + resource and status code. */
export function summarise(delta: RequestCounter[]): RequestSummary {
  const summary: RequestSummary = {
    total: 0,
    writes: 0,
    byVerb: {},
    byVerbResource: {},
    byCode: {},
    writesByVerbResource: {},
    conflictsByVerbResource: {},
  };
  for (const c of delta) {
    summary.total += c.value;
    if (WRITE_VERBS.has(c.verb) && !c.dryRun) {
      summary.writes += c.value;
      add(summary.writesByVerbResource, `${c.verb} ${c.resource}`, c.value);
    }
    add(summary.byVerb, c.verb, c.value);
    add(summary.byVerbResource, `${c.verb} ${c.resource}`, c.value);
    add(summary.byCode, String(c.code), c.value);
    if (c.code === 409) add(summary.conflictsByVerbResource, `${c.verb} ${c.resource}`, c.value);
  }
  return summary;
}

const add = (into: Record<string, number>, key: string, n: number) => {
  into[key] = (into[key] ?? 0) + n;
};

/**
 * Scrapes `${server}/metrics` as the cluster's admin (its kubeconfig's client certificate) and parses the request
 * counters. The scrape does not count itself: the apiserver does not instrument its `/metrics` handler.
 */
export async function scrapeRequestCounters(cluster: {
  server: string;
  kubeConfig(): KubeConfig;
}): Promise<RequestCounter[]> {
  return parseRequestCounters(await scrapeMetrics(cluster));
}

/** How long a scrape waits for a silent API server, and how often it asks: under 40 control planes on two cores a
 * `/metrics` answer took longer than a probe's 5 s, and one slow answer ended a whole side-by-side run. */
export const SCRAPE = { timeoutMs: 60_000, attempts: 3 };

/** The raw `/metrics` text of a cluster's kube-apiserver, asked again after a timeout or a lost connection. */
export async function scrapeMetrics(
  cluster: { server: string; kubeConfig(): KubeConfig },
  { timeoutMs, attempts } = SCRAPE,
): Promise<string> {
  const opts: RequestOptions = {};
  await cluster.kubeConfig().applyToHTTPSOptions(opts);
  const tls: TlsMaterial = {};
  for (const key of ['ca', 'cert', 'key'] as const) {
    const pem = opts[key];
    if (typeof pem === 'string' || Buffer.isBuffer(pem)) tls[key] = pem.toString();
  }
  const url = `${cluster.server}/metrics`;
  const res = await patiently(() => get(url, tls, timeoutMs), attempts);
  if (res.status !== 200)
    throw new Error(`GET ${cluster.server}/metrics: HTTP ${res.status}: ${res.body.slice(0, 200)}`);
  return res.body;
}

/** The answer of the first of `attempts` tries that gets one; the last try's error when none does. */
async function patiently<T>(ask: () => Promise<T>, attempts: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (e) {
      if (attempt >= attempts) throw e;
    }
  }
}
