import { HTTP } from 'cloudevents';
import Fastify, { type FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import { InvalidEventError } from './errors.ts';
import type { EventAttributes } from './events.ts';
import { invoke, type LifecycleFunction, type Outcome } from './invoke.ts';
import type { Logger } from './logger.ts';

export interface FunctionHost {
  readonly url: string;
  readonly server: FastifyInstance;
  close(): Promise<void>;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * Serves a lifecycle function over HTTP the way Knative delivers to it: CloudEvents in binary or structured
 * mode on POST /, one reply CloudEvent (binary mode) or 204 out, /health/readiness, /health/liveness, /metrics.
 */
export async function startFunctionHost(fn: LifecycleFunction, log: Logger, port = 0, host = '127.0.0.1'):
Promise<FunctionHost> {
  const server = Fastify({ bodyLimit: BODY_LIMIT, logger: false });
  const metrics = functionMetrics(fn.name);
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  server.post('/', async (request, reply) => {
    const started = performance.now();
    const parsed = parseEvent(request.headers, request.body);
    const outcome = parsed instanceof InvalidEventError
      ? await invokeInvalid(fn, parsed, log)
      : await invoke(fn, parsed, log);
    metrics.observe(outcome, (performance.now() - started) / 1000);
    if ('reply' in outcome) {
      const message = HTTP.binary(outcome.reply);
      return reply.code(200).headers(message.headers).send(message.body);
    }
    if ('error' in outcome) return reply.code(outcome.status).send({ code: outcome.error.code, message: outcome.error.message });
    return reply.code(204).send();
  });
  server.get('/health/readiness', async () => 'OK');
  server.get('/health/liveness', async () => 'OK');
  server.get('/metrics', async (_req, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  const address = await server.listen({ port, host });
  return { url: address, server, close: () => server.close() };
}

function parseEvent(headers: IncomingHttpHeaders, body: unknown): EventAttributes | InvalidEventError {
  const missing = missingAttributes(headers, typeof body === 'string' ? body : '');
  if (missing.length) return new InvalidEventError(`not a valid CloudEvent: required attribute(s) ${missing.join(', ')} missing or empty`);
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
  if (!String(headers['content-type'] ?? '').startsWith('application/cloudevents+json')) return REQUIRED.filter((a) => !headers[`ce-${a}`]);
  let json: unknown;
  try { json = JSON.parse(body); } catch { return []; } // the SDK refuses it with its own message
  const fields = typeof json === 'object' && json !== null ? json as Record<string, unknown> : {};
  return REQUIRED.filter((a) => typeof fields[a] !== 'string' || !fields[a]);
}

async function invokeInvalid(fn: LifecycleFunction, error: InvalidEventError, log: Logger): Promise<Outcome> {
  log.warn({ fn: fn.name, status: 400, code: error.code }, error.message);
  return { status: 400, error };
}

function functionMetrics(fn: string) {
  const registry = new Registry();
  const invocations = new Counter({
    name: 'lifecycle_function_invocations_total', help: 'Invocations by outcome (HTTP status of the reply contract).',
    labelNames: ['fn', 'status'], registers: [registry],
  });
  const seconds = new Histogram({
    name: 'lifecycle_function_duration_seconds', help: 'Invocation duration.', labelNames: ['fn'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  // Upstream's requeue counter: a call answered 409/503/500 is retried (requeued) by the broker; "intended" when the
  // function asked for it (not ready yet), "unexpected" for conflicts and failures. The reason is the error code.
  const requeues = new Counter({
    name: 'lifecycle_mgr_requeue_reason_total', help: 'Calls the broker retries, by reason (function and error code) and type.',
    labelNames: ['requeue_reason', 'requeue_type'], registers: [registry],
  });
  return {
    registry,
    observe(outcome: Outcome, durationSeconds: number) {
      invocations.inc({ fn, status: String(outcome.status) });
      seconds.observe({ fn }, durationSeconds);
      if ('error' in outcome && outcome.status >= 409 && outcome.status !== 400) {
        requeues.inc({ requeue_reason: `${fn}_${outcome.error.code.replace(/^LCM_ERR_/, '').toLowerCase()}`, requeue_type: outcome.status === 503 && outcome.error.code === 'LCM_ERR_NOT_YET_READY' ? 'intended' : 'unexpected' });
      }
    },
  };
}
