import { describe, expect, it } from 'vitest';
import {
  currentTraceparent,
  formatTraceparent,
  inSpan,
  parseTraceparent,
  randomHex,
  recordedTrace,
  startSpan,
} from './trace.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
const OURS = ['lifecycle-manager', 'declarative.kyma-project.io/applier', 'kyma-lifecycle-manager'];
const ANNOTATION = 'operator.kyma-project.io/last-trace';

describe('traceparent', () => {
  it('parses valid version-00 headers and refuses the rest', () => {
    expect(parseTraceparent(PARENT)).toEqual({ traceId: TRACE, spanId: '00f067aa0ba902b7', sampled: true });
    expect(parseTraceparent(`00-${TRACE}-00f067aa0ba902b7-00`)?.sampled).toBe(false);
    for (const bad of [
      undefined,
      42,
      '',
      `01-${TRACE}-00f067aa0ba902b7-01`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`,
      `${PARENT}-x`,
    ]) {
      expect(parseTraceparent(bad)).toBeUndefined();
    }
    expect(formatTraceparent({ traceId: TRACE, spanId: '00f067aa0ba902b7', sampled: true })).toBe(PARENT);
  });

  it("a span continues its parent's trace with a new span id, or roots a new trace", () => {
    const child = startSpan(parseTraceparent(PARENT), (n) => 'ab'.repeat(n));
    expect(child).toEqual({ traceId: TRACE, spanId: 'ab'.repeat(8), sampled: true, parentSpanId: '00f067aa0ba902b7' });
    const root = startSpan(undefined);
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(startSpan(undefined).traceId).not.toBe(root.traceId);
  });

  it('events sent within a span carry it; outside any span each gets a new trace', async () => {
    const span = startSpan(parseTraceparent(PARENT));
    expect(await inSpan(span, async () => currentTraceparent())).toBe(formatTraceparent(span));
    expect(parseTraceparent(currentTraceparent())?.traceId).not.toBe(TRACE);
  });
});

describe('recordedTrace: continuing across a write', () => {
  const object = (newest: { manager: string; subresource?: string }) => ({
    metadata: {
      annotations: { [ANNOTATION]: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` },
      managedFields: [
        { manager: 'e2e-user', time: '2026-11-23T07:00:00Z' },
        { ...newest, time: '2026-11-23T07:00:05Z' },
        { manager: 'lifecycle-manager', time: '2026-11-23T06:59:00Z' },
      ],
    },
    status: { lastTrace: PARENT },
  });
  it('our status write → its status.lastTrace; our spec or metadata write → the annotation', () => {
    expect(
      recordedTrace(object({ manager: 'declarative.kyma-project.io/applier', subresource: 'status' }), OURS, ANNOTATION)
        ?.traceId,
    ).toBe(TRACE);
    expect(recordedTrace(object({ manager: 'kyma-lifecycle-manager' }), OURS, ANNOTATION)?.traceId).toBe(
      '1'.repeat(32),
    );
  });
  it('a newest write by anyone else, no managedFields, or nothing recorded → a new trace', () => {
    expect(recordedTrace(object({ manager: 'kubectl-edit' }), OURS, ANNOTATION)).toBeUndefined();
    expect(recordedTrace({ metadata: {} }, OURS, ANNOTATION)).toBeUndefined();
    expect(recordedTrace(undefined, OURS, ANNOTATION)).toBeUndefined();
    expect(
      recordedTrace(
        { metadata: { managedFields: [{ manager: 'lifecycle-manager', subresource: 'status', time: 't' }] } },
        OURS,
        ANNOTATION,
      ),
    ).toBeUndefined();
  });
});

describe('randomHex', () => {
  it('draws ids of the asked length that do not repeat, also across refills of its pool', () => {
    const ids = Array.from({ length: 2000 }, () => randomHex(8));
    expect(ids.every((id) => /^[0-9a-f]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomHex(16)).toMatch(/^[0-9a-f]{32}$/);
  });
});
