// OpenTelemetry trace export (issue 37, ADR 59), off unless configured (Config.traces): each call is a SERVER span
// with the ids the chain already carries (ADR 20), so the backend shows the chain as one trace, and each API request
// of a call is a CLIENT span under it. The SDK is loaded only when export is on: nothing of it runs otherwise.
import type * as Api from '@opentelemetry/api';
import { callContext } from './call-context.ts';
import { functionOfCaller } from '../kube/request-tally.ts';
import type { TraceExport } from './config.ts';
import { keyText, type EventAttributes, type ObjectKey } from './events.ts';
import { LABEL } from '../core/vocabulary.ts';
import { randomHex, type TraceContext } from './trace.ts';

interface Exporting {
  readonly api: typeof Api;
  tracer(service: string): Api.Tracer;
  shutdown(): Promise<void>;
}
let exporting: Exporting | undefined;
/** The ids the SDK takes for the span being started (ours, ADR 20); random when none are set. */
let chosen: { traceId?: string; spanId?: string } = {};

/** Starts exporting spans to `config.url` (OTLP/HTTP, batched); nothing when `config` is absent. */
export async function startTraceExport(config: TraceExport | undefined): Promise<void> {
  if (!config || exporting) return;
  const [api, sdk, otlp, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const idGenerator = {
    generateTraceId: () => chosen.traceId ?? randomHex(16),
    generateSpanId: () => chosen.spanId ?? randomHex(8),
  };
  const processor = new sdk.BatchSpanProcessor({
    exporter: new otlp.OTLPTraceExporter({ url: config.url }),
    scheduledDelayMillis: config.scheduleDelayMs,
  });
  const providers = new Map<string, Api.Tracer>();
  const all: InstanceType<typeof sdk.TracerProvider>[] = [];
  exporting = {
    api,
    tracer(service) {
      const name = config.serviceName ?? service;
      let tracer = providers.get(name);
      if (!tracer) {
        const resource = resources.resourceFromAttributes({ 'service.name': name });
        const provider = new sdk.TracerProvider({ resource, idGenerator, spanProcessors: [processor] });
        all.push(provider);
        providers.set(name, (tracer = provider.getTracer('kyma-lifecycle')));
      }
      return tracer;
    },
    shutdown: async () => {
      await Promise.all(all.map((p) => p.forceFlush()));
      await processor.shutdown();
    },
  };
}

/** Sends what is batched and stops exporting (a host's close). */
export async function stopTraceExport(): Promise<void> {
  const stopping = exporting;
  exporting = undefined;
  await stopping?.shutdown();
}

/** The span of one call, started now with the call's own ids; answers how to end it, or undefined when not exporting
 * (then `attributes` is not even called). */
export function exportCall(
  fn: string,
  span: TraceContext & { parentSpanId?: string },
  attributes: () => Api.Attributes,
): ((status: number, attributes: Api.Attributes, error?: string) => void) | undefined {
  if (!exporting) return undefined;
  const { api } = exporting;
  const parent = span.parentSpanId ? remote(api, { ...span, spanId: span.parentSpanId }) : api.ROOT_CONTEXT;
  chosen = { traceId: span.traceId, spanId: span.spanId };
  const started = exporting.tracer(fn).startSpan(fn, { kind: api.SpanKind.SERVER, attributes: attributes() }, parent);
  chosen = {};
  return (status, more, error) => {
    started.setAttributes({ ...more, 'http.response.status_code': status });
    if (status === 400 || status >= 500) started.setStatus({ code: api.SpanStatusCode.ERROR, message: error ?? '' });
    started.end();
  };
}

/** Runs one API request of the current call as a CLIENT span under the call's span (none outside a call); while not
 * exporting, `send()` itself. */
export function traceRequest<T extends { status: number }>(
  method: string,
  path: string,
  server: string,
  send: () => Promise<T>,
): Promise<T> {
  const trace = exporting && callContext().trace;
  return exporting && trace ? tracedRequest(exporting, trace, method, path, server, send) : send();
}

async function tracedRequest<T extends { status: number }>(
  { api, tracer }: Exporting,
  trace: TraceContext,
  method: string,
  path: string,
  server: string,
  send: () => Promise<T>,
): Promise<T> {
  const service = functionOfCaller(callContext().caller ?? 'lifecycle').replace(/ \(drift\)$/, '');
  const [route = '', query] = path.split('?');
  const span = tracer(service).startSpan(
    `${method} ${route}`,
    {
      kind: api.SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'url.path': route,
        ...(query ? { 'url.query': query } : {}),
        'server.address': URL.canParse(server) ? new URL(server).host : server,
      },
    },
    remote(api, trace),
  );
  try {
    const answer = await send();
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    return answer;
  } catch (error) {
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

const remote = (api: typeof Api, trace: TraceContext) =>
  api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId: trace.traceId,
    spanId: trace.spanId,
    traceFlags: trace.sampled ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE,
    isRemote: true,
  });

/** PURE. A call's attributes: its event, its object, and the Kyma, module and runtime it is about where the object or
 * the event's data (an ApiServerSource event carries the object) says so. */
export function callAttributes(event: EventAttributes, key: ObjectKey): Api.Attributes {
  const labels = (event as { data?: { metadata?: { labels?: Record<string, unknown> } } }).data?.metadata?.labels;
  const label = (name: string) => (typeof labels?.[name] === 'string' ? labels[name] : undefined);
  const kyma = key.kind === 'Kyma' ? key.name : label(LABEL.kymaName);
  const module = label(LABEL.moduleName);
  return {
    'cloudevents.event_id': event.id,
    'cloudevents.event_type': event.type,
    ...(key.kind ? { 'k8s.object': keyText(key) } : {}),
    ...(kyma ? { 'kyma.name': kyma, 'kyma.runtime': `${key.namespace}/${kyma}` } : {}),
    ...(module ? { 'kyma.module': module } : {}),
  };
}
