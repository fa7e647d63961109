// W3C trace context through the chain (ADR 20): every call runs in a span; the events it sends carry its `traceparent`
// and the objects it writes record it (status.lastTrace or the last-trace annotation), so the call reacting to our own
// write continues the trace.
import { randomFillSync } from 'node:crypto';
import { callContext, withinCall } from './call-context.ts';

export interface TraceContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZEROS = /^0+$/;

/** PURE. A valid version-00 traceparent, or undefined (all-zero ids are invalid, as the spec says). */
export function parseTraceparent(value: unknown): TraceContext | undefined {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value) : null;
  if (!match || ZEROS.test(match[1] ?? '') || ZEROS.test(match[2] ?? '')) return undefined;
  return { traceId: match[1] ?? '', spanId: match[2] ?? '', sampled: (Number.parseInt(match[3] ?? '0', 16) & 1) === 1 };
}

export const formatTraceparent = (trace: TraceContext) =>
  `00-${trace.traceId}-${trace.spanId}-${trace.sampled ? '01' : '00'}`;

/** Random bytes for ids are drawn from a pool filled 4 KiB at a time: one call into the system's generator per
 * ~170 spans instead of one per id (each call cost more than the id). */
const pool = Buffer.alloc(4096);
let drawn = pool.length;
export function randomHex(bytes: number): string {
  if (drawn + bytes > pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += bytes;
  return pool.toString('hex', drawn - bytes, drawn);
}

/** A new span: in `parent`'s trace, or the root of a new trace. */
export function startSpan(
  parent: TraceContext | undefined,
  random: (bytes: number) => string = randomHex,
): TraceContext & { parentSpanId?: string } {
  return parent
    ? { traceId: parent.traceId, spanId: random(8), sampled: parent.sampled, parentSpanId: parent.spanId }
    : { traceId: random(16), spanId: random(8), sampled: true };
}

export interface ManagedFieldsEntry {
  manager?: string;
  subresource?: string;
  time?: string;
}
interface Traced {
  metadata?: { annotations?: Record<string, string>; managedFields?: ManagedFieldsEntry[] };
  status?: { lastTrace?: unknown };
}

/** PURE. The newest write on `object` (managedFields, by time) when it was one of `ours`; else undefined. */
export function newestOwnWrite(object: unknown, ours: readonly string[]): ManagedFieldsEntry | undefined {
  const entries = (object as Traced | undefined)?.metadata?.managedFields ?? [];
  const newest = entries.reduce<ManagedFieldsEntry | undefined>(
    (best, e) => (!best || (e.time ?? '') >= (best.time ?? '') ? e : best),
    undefined,
  );
  return newest?.manager && ours.includes(newest.manager) ? newest : undefined;
}

/** PURE. The trace a write recorded on `object` (status.lastTrace for a status write, else annotation `annotation`)
 * when its newest write was one of `ours`; a write by anyone else starts a new one. */
export function recordedTrace(object: unknown, ours: readonly string[], annotation: string): TraceContext | undefined {
  const newest = newestOwnWrite(object, ours);
  if (!newest) return undefined;
  const traced = object as Traced;
  return parseTraceparent(
    newest.subresource === 'status' ? traced.status?.lastTrace : traced.metadata?.annotations?.[annotation],
  );
}

/** Runs `work` as the span `trace` in `lane`: events it sends carry both, writes record them (ADR 20, 72). */
export const inSpan = <T>(trace: TraceContext, work: () => Promise<T>, lane?: string): Promise<T> =>
  withinCall(lane ? { trace, lane } : { trace }, work);

/** The current call's traceparent; outside a call (a source, the runtime watch), the root of a new trace. */
export const currentTraceparent = (): string => formatTraceparent(callContext().trace ?? startSpan(undefined));
