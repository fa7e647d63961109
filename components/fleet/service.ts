// The fleet component (ADR 19): one process on the KCP holding Kymas, Manifests and ModuleReleaseMetas in watch caches,
// answering read-only (/metrics, the page, /api/fleet, /api/kymas[/<name>], /api/changes, /plan, /api/plan) and taking
// the Triggers' dead letters (POST /dead-letters, dead-letters.ts, ADR 60); on Knative exactly one instance.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { CACHED } from '../../shared/host/deps.ts';
import type { Logger } from '../../shared/host/logger.ts';
import type { Config } from '../../shared/host/config.ts';
import { deadLetterSink } from './dead-letters.ts';
import { fleetMetrics, type FleetState } from './metrics.ts';
import { planRoute } from './plan-route.ts';
import { FLEET_PAGE } from './page.ts';
import { kymaRows } from './rows.ts';
import { readExplanation } from './read.ts';
import { FLEET_NAME, summarizeFleet } from './summary.ts';

export interface FleetService {
  readonly url: string;
  close(): Promise<void>;
}

/** `config` (the module registry, runtime kubeconfig policy, maintenance policy) enables the plan view (/plan, /api/plan). */
export async function startFleetService(
  base: KubeClient,
  namespace: string,
  log: Logger,
  port = 0,
  host = '127.0.0.1',
  config?: Config,
): Promise<FleetService> {
  const kcp = base.cachingReads([CACHED.kymas, CACHED.manifests, CACHED.releaseMetas]);
  // Whole collections straight from the caches, not copied: everything here only reads them (KubeClient.scan).
  const list = <T extends { apiVersion?: string; kind?: string; metadata: { name: string } }>(kind: string) =>
    kcp.scan<T, T>(API_VERSION, kind, { namespace }, (o) => o);
  const state = async (): Promise<FleetState> => ({
    kymas: await list<Kyma>('Kyma'),
    manifests: await list<Manifest>('Manifest'),
    releaseMetas: await list<ModuleReleaseMeta>('ModuleReleaseMeta'),
  });
  const metrics = fleetMetrics(state);
  const deadLetters = deadLetterSink(metrics.registry, log);
  const planned = planRoute(kcp, namespace, config);
  // The summary is computed again only when the Kyma cache has moved: between changes it is a string in memory.
  let summarized: { revision: string; answer: ReturnType<typeof json> } | undefined;
  const summary = async () => {
    const revision = kcp.cachedRevision(API_VERSION, 'Kyma', namespace);
    if (revision && summarized?.revision === revision) return summarized.answer;
    const answer = json(200, summarizeFleet(await list<Kyma>('Kyma')));
    summarized = { revision: kcp.cachedRevision(API_VERSION, 'Kyma', namespace) === revision ? revision : '', answer };
    return answer;
  };

  const routes = async (url: URL): Promise<{ status: number; type: string; body: string }> => {
    if (url.pathname === '/metrics')
      return { status: 200, type: metrics.registry.contentType, body: await metrics.scrape() };
    if (url.pathname === '/healthz') return { status: 200, type: 'text/plain', body: 'ok\n' };
    if (url.pathname === '/') return { status: 200, type: 'text/html; charset=utf-8', body: FLEET_PAGE };
    if (url.pathname === '/api/fleet') return summary();
    if (url.pathname === '/plan' || url.pathname === '/api/plan') return planned(url);
    if (url.pathname === '/api/kymas') {
      const q = url.searchParams;
      return json(
        200,
        kymaRows(await list<Kyma>('Kyma'), {
          state: q.get('state') || undefined,
          module: q.get('module') || undefined,
          name: q.get('name') || undefined,
          limit: Number(q.get('limit')) || undefined,
        }),
      );
    }
    const kymaName = /^\/api\/kymas\/([^/]+)$/.exec(url.pathname)?.[1];
    if (kymaName !== undefined)
      return explain(kcp, namespace, decodeURIComponent(kymaName), url.searchParams.get('module') ?? undefined);
    return json(404, { error: `no such path: ${url.pathname}` });
  };

  const stopping = new AbortController();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/dead-letters') return void deadLetters(req).then((a) => send(res, a));
    if (req.method !== 'GET') return send(res, json(405, { error: 'read-only: GET only (and POST /dead-letters)' }));
    if (req.url === '/api/changes') return void changes(kcp, namespace, res, stopping.signal);
    routes(new URL(req.url ?? '/', 'http://fleet')).then(
      (answer) => send(res, answer),
      (error: unknown) => {
        log.warn({ err: String(error), path: req.url }, 'fleet: request failed');
        send(
          res,
          json(503, { error: `the KCP could not be read: ${error instanceof Error ? error.message : String(error)}` }),
        );
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    close: async () => {
      stopping.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      base.stopCaches();
    },
  };
}

async function explain(kcp: KubeClient, namespace: string, name: string, module: string | undefined) {
  if (!FLEET_NAME.test(name) || (module !== undefined && !FLEET_NAME.test(module)))
    return json(400, { error: 'expected a Kyma name (and module name) of lower-case letters, digits, "-" and "."' });
  const explanation = await readExplanation(kcp, namespace, name, module);
  return explanation ? json(200, explanation) : json(404, { error: `no Kyma ${namespace}/${name}` });
}

/** Server-sent events: one message whenever the Kyma or Manifest cache moved (checked every second). */
async function changes(kcp: KubeClient, namespace: string, res: ServerResponse, stopping: AbortSignal): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  const closed = new AbortController();
  res.on('close', () => closed.abort());
  const signal = AbortSignal.any([stopping, closed.signal]);
  const revision = () =>
    `${kcp.cachedRevision(API_VERSION, 'Kyma', namespace)}/${kcp.cachedRevision(API_VERSION, 'Manifest', namespace)}`;
  let seen = revision();
  while (await delay(1000, true, { signal }).catch(() => false)) {
    const now = revision();
    if (now !== seen) res.write(`data: ${now}\n\n`);
    seen = now;
  }
  res.end();
}

const json = (status: number, body: unknown) => ({
  status,
  type: 'application/json',
  body: `${JSON.stringify(body)}\n`,
});

function send(res: ServerResponse, answer: { status: number; type: string; body: string }): void {
  res.writeHead(answer.status, { 'content-type': answer.type, 'cache-control': 'no-store' }).end(answer.body);
}
