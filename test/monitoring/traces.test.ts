// OpenTelemetry traces on a real Jaeger (ADR 59): the local runner exports over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT,
// as on Knative); an install's trace, found by the id the Manifest records, holds a SERVER span of every function of
// the chain with the Kyma, module and step as attributes, the API requests as CLIENT spans under them, one root.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { locateMonitoringBinaries } from '../../local/controlplane/binaries.ts';
import { ANNOTATION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { parseTraceparent } from '../../shared/host/trace.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from '../e2e/world.ts';
import { startJaeger, type Jaeger, type JaegerSpan, type JaegerTrace } from './jaeger.ts';

const MODULE = 'uniform';
const KYMA = 'traced';
const CHAIN = ['resolve-template', 'render-manifest', 'apply-remote', 'aggregate-status'];
let jaeger: Jaeger;
let world: World;

beforeAll(async () => {
  jaeger = await startJaeger((await locateMonitoringBinaries()).jaeger, inject('controlPlane').runDir);
  world = await startWorld({ OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlp, OTEL_BSP_SCHEDULE_DELAY: '200' });
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
}, 1_800_000);

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  await world?.runner.stop();
  await jaeger?.stop();
});

const tag = (span: JaegerSpan, key: string) => span.tags.find((t) => t.key === key)?.value;
const serviceOf = (trace: JaegerTrace, span: JaegerSpan) => trace.processes[span.processID]?.serviceName;
const calls = (trace: JaegerTrace) => trace.spans.filter((s) => tag(s, 'span.kind') === 'server');
const parentOf = (s: JaegerSpan) => s.references.find((r) => r.refType === 'CHILD_OF')?.spanID;
const requestsOf = (trace: JaegerTrace) => trace.spans.filter((s) => tag(s, 'span.kind') === 'client');
function requestsUnderCalls(trace: JaegerTrace): boolean {
  const callIds = new Set(calls(trace).map((c) => c.spanID));
  return requestsOf(trace).every((r) => callIds.has(parentOf(r) ?? ''));
}

describe('traces over OTLP', () => {
  it("an install is one trace in Jaeger: every function's call with the Kyma, module and step, its API requests under it", async () => {
    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const [manifest] = await manifestsOf(world, KYMA);
    const traceId = parseTraceparent(manifest?.metadata.annotations?.[ANNOTATION.lastTrace])?.traceId ?? '';
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    // A call's span is exported when it ends, after its requests' spans: a call still running (a later event of the
    // same trace) has requests in Jaeger before itself. Waited for until every request's call is there too.
    const trace = await eventually(
      () => `Jaeger holds trace ${traceId} with a call of each of ${CHAIN.join(', ')} and the call of every request`,
      async () => {
        const found = await jaeger.trace(traceId);
        const services = new Set(found ? calls(found).map((s) => serviceOf(found, s)) : []);
        return found && CHAIN.every((fn) => services.has(fn)) && requestsUnderCalls(found) ? found : undefined;
      },
      60_000,
    );
    const services = calls(trace).map((c) => serviceOf(trace, c));
    console.info(`[traces] ${traceId}: ${trace.spans.length} spans, calls: ${services.join(', ')}`);
    for (const call of calls(trace)) {
      expect(call.operationName).toBe(serviceOf(trace, call));
      expect(tag(call, 'kyma.name'), call.operationName).toBe(KYMA);
      expect(tag(call, 'cloudevents.event_type'), call.operationName).toEqual(expect.any(String));
    }
    expect(calls(trace).some((c) => tag(c, 'kyma.module') === MODULE)).toBe(true);
    expect(calls(trace).some((c) => typeof tag(c, 'lifecycle.step') === 'string')).toBe(true);

    const ids = new Set(trace.spans.map((s) => s.spanID));
    const requests = requestsOf(trace);
    expect(requests.length).toBeGreaterThan(CHAIN.length);
    const callIds = new Set(calls(trace).map((c) => c.spanID));
    for (const request of requests) expect(callIds.has(parentOf(request) ?? ''), request.operationName).toBe(true);
    expect(requests.some((r) => tag(r, 'http.request.method') === 'PATCH')).toBe(true);
    // One root: every other span's parent is in the trace (the chain continued through events and writes).
    expect(trace.spans.filter((s) => !parentOf(s) || !ids.has(parentOf(s) ?? '')).length).toBe(1);
  }, 300_000);
});
