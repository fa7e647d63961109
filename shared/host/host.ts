import { HTTP } from 'cloudevents';
import Fastify, { type FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidEventError } from './errors.ts';
import type { EventAttributes } from './events.ts';
import { invoke, type LifecycleFunction, type Outcome } from './invoke.ts';
import type { Logger } from './logger.ts';
import { functionMetrics } from './metrics.ts';

export interface FunctionHost {
  readonly url: string;
  readonly server: FastifyInstance;
  /** One call with an event already parsed, as a POST makes it (the local runner's broker calls in process). */
  call(event: EventAttributes): Promise<Outcome>;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;

/** Serves a lifecycle function over HTTP as Knative delivers to it: binary or structured CloudEvents on POST /, one
 * binary reply event or 204 out, /health/readiness, /health/liveness, /metrics. */
export async function startFunctionHost(
  fn: LifecycleFunction,
  log: Logger,
  port = 0,
  host = '127.0.0.1',
): Promise<FunctionHost> {
  const server = Fastify({ bodyLimit: BODY_LIMIT, logger: false });
  const metrics = functionMetrics(fn.name);
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
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
  server.post('/', async (request, reply) => {
    const outcome = await call(parseEvent(request.headers, request.body));
    if ('reply' in outcome) {
      const message = HTTP.binary(outcome.reply);
      return reply.code(200).headers(message.headers).send(message.body);
    }
    if ('error' in outcome)
      return reply.code(outcome.status).send({ code: outcome.error.code, message: outcome.error.message });
    return reply.code(204).send();
  });
  server.get('/health/readiness', async () => 'OK');
  server.get('/health/liveness', async () => 'OK');
  server.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.scrape()));
  const address = await server.listen({ port, host });
  // Closing waits for running calls, also those whose sender hung up, so none writes after the close (ADR 35); a
  // referenced timer keeps the process alive meanwhile, or calls awaiting unreferenced timers would be cut off.
  const close = async () => {
    await server.close();
    const settled = new AbortController();
    const drained = Promise.allSettled([...inFlight]).finally(() => settled.abort());
    await Promise.race([drained, sleep(DRAIN_MS, undefined, { signal: settled.signal }).catch(() => undefined)]);
  };
  return { url: address, server, call, close };
}

/** How long closing waits for running calls at most. */
const DRAIN_MS = 30_000;

function parseEvent(headers: IncomingHttpHeaders, body: unknown): EventAttributes | InvalidEventError {
  const missing = missingAttributes(headers, typeof body === 'string' ? body : '');
  if (missing.length)
    return new InvalidEventError(
      `not a valid CloudEvent: required attribute(s) ${missing.join(', ')} missing or empty`,
    );
  try {
    const event = HTTP.toEvent({ headers, body: typeof body === 'string' ? body : '' });
    if (Array.isArray(event)) return new InvalidEventError('batched CloudEvents are not accepted');
    return event as unknown as EventAttributes;
  } catch (error) {
    return new InvalidEventError(`not a valid CloudEvent: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const REQUIRED = ['specversion', 'id', 'source', 'type'] as const;

/** The CloudEvents SDK fills in a missing specversion, id or source; the spec requires all four, so we check the wire. */
function missingAttributes(headers: IncomingHttpHeaders, body: string): string[] {
  if (!String(headers['content-type'] ?? '').startsWith('application/cloudevents+json'))
    return REQUIRED.filter((a) => !headers[`ce-${a}`]);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [];
  } // the SDK refuses it with its own message
  const fields = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  return REQUIRED.filter((a) => typeof fields[a] !== 'string' || !fields[a]);
}

async function invokeInvalid(fn: LifecycleFunction, error: InvalidEventError, log: Logger): Promise<Outcome> {
  log.warn({ fn: fn.name, status: 400, code: error.code }, error.message);
  return { status: 400, error };
}
