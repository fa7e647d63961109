import { HTTP } from 'cloudevents';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidEventError } from './errors.ts';
import { parseEvent } from './parse-event.ts';
import { requestBody } from './request-body.ts';
import type { EventAttributes } from './events.ts';
import { invoke, type LifecycleFunction, type Outcome } from './invoke.ts';
import type { Logger } from './logger.ts';
import { functionMetrics } from './metrics.ts';
import { CallGate, rankOfLane } from './call-gate.ts';
import { laneOf } from './lane.ts';

export interface FunctionHost {
  readonly url: string;
  /** One call with an event already parsed, as a POST makes it (the local runner's broker calls in process). */
  call(event: EventAttributes): Promise<Outcome>;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;

/** A burst of deliveries (a Service's containerConcurrency at once) must not be refused by a short listen queue. */
const BACKLOG = 4096;

/** Longer than the idle time of the proxies in front (Knative's activator and queue-proxy), so a kept-alive connection
 * is never closed by us while one of them sends on it. */
const KEEP_ALIVE_MS = 72_000;

/** Serves a lifecycle function over HTTP as Knative delivers to it: binary or structured CloudEvents on POST /, one
 * binary reply event or 204 out, /health/readiness, /health/liveness, /metrics. Node's own HTTP server (ADR 53).
 * At most `callsAtOnce` POSTs run at once (0 = no limit), the user lane's first (ADR 72). */
export async function startFunctionHost(
  fn: LifecycleFunction,
  log: Logger,
  port = 0,
  host = '127.0.0.1',
  callsAtOnce = 0,
): Promise<FunctionHost> {
  const metrics = functionMetrics(fn.name);
  const gate = new CallGate(callsAtOnce);
  const inFlight = new Set<Promise<Outcome>>();
  const call = async (parsed: EventAttributes | InvalidEventError): Promise<Outcome> => {
    const started = performance.now();
    const running = parsed instanceof InvalidEventError ? invokeInvalid(fn, parsed, log) : invoke(fn, parsed, log);
    inFlight.add(running);
    const outcome = await running.finally(() => inFlight.delete(running));
    metrics.observe(
      outcome,
      (performance.now() - started) / 1000,
      parsed instanceof InvalidEventError ? undefined : parsed,
    );
    return outcome;
  };
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void>> = {
    'POST /': async (req, res) => {
      const body = await requestBody(req, BODY_LIMIT);
      if (body === undefined) return send(res, 413, problem('LCM_ERR_EVENT_INVALID', 'the body is larger than 1 MiB'));
      const parsed = parseEvent(req.headers, body.toString('utf8'));
      const rank = parsed instanceof InvalidEventError ? 0 : rankOfLane(laneOf(parsed));
      // A sender that hung up while its call waited gets nothing run (its broker retries or has given up).
      const outcome = await gate.run(rank, async () => (req.socket.destroyed ? undefined : call(parsed)));
      if (!outcome) return;
      if ('reply' in outcome) {
        const message = HTTP.binary(outcome.reply);
        return send(res, 200, message.body, message.headers as Record<string, string>);
      }
      if ('error' in outcome) return send(res, outcome.status, problem(outcome.error.code, outcome.error.message));
      return send(res, 204);
    },
    'GET /health/readiness': async (_req, res) => send(res, 200, 'OK'),
    'GET /health/liveness': async (_req, res) => send(res, 200, 'OK'),
    'GET /metrics': async (_req, res) =>
      send(res, 200, await metrics.scrape(), { 'content-type': metrics.contentType }),
  };
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => {
    const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    (routes[route] ?? notFound(route))(req, res).catch((error: unknown) => {
      log.error({ fn: fn.name, err: String(error) }, 'function host: the request failed');
      if (!res.headersSent) send(res, 500, problem('LCM_ERR_INTERNAL', 'the request failed'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: BACKLOG }, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${bound}`;
  // Closing waits for running calls, also those whose sender hung up, so none writes after the close (ADR 35); a
  // referenced timer keeps the process alive meanwhile, or calls awaiting unreferenced timers would be cut off.
  const close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const settled = new AbortController();
    const drained = Promise.allSettled([...inFlight]).finally(() => settled.abort());
    await Promise.race([drained, sleep(DRAIN_MS, undefined, { signal: settled.signal }).catch(() => undefined)]);
  };
  return { url, call, close };
}

/** How long closing waits for running calls at most. */
const DRAIN_MS = 30_000;

async function invokeInvalid(fn: LifecycleFunction, error: InvalidEventError, log: Logger): Promise<Outcome> {
  log.warn({ fn: fn.name, status: 400, code: error.code }, error.message);
  return { status: 400, error };
}

const problem = (code: string, message: string) => ({ code, message });

const notFound = (route: string) => async (_req: IncomingMessage, res: ServerResponse) =>
  send(res, 404, problem('LCM_ERR_EVENT_INVALID', `${route}: no such route`));

/** Answers `status` with a text, JSON of an object, or nothing. */
function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  const raw = typeof body === 'string' || ArrayBuffer.isView(body);
  const payload = raw ? (body as string | Uint8Array) : body === undefined ? undefined : JSON.stringify(body);
  const type = raw ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  res.writeHead(status, payload === undefined ? headers : { 'content-type': type, ...headers });
  res.end(payload);
}
