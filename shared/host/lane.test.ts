import { describe, expect, it } from 'vitest';
import { withinCall } from './call-context.ts';
import { eventAbout, LANE } from './events.ts';
import { laneOf, laneToRecord, recordedLane } from './lane.ts';

const APPLIER = 'declarative.kyma-project.io/applier';
const RENDERER = 'lifecycle-manager';

/** A Manifest as the API server's event carries it: its writes by manager, newest last by time. */
const manifest = (writes: { manager: string; status?: boolean; time: string }[], lastLane = 'user') => ({
  metadata: {
    annotations: { 'operator.kyma-project.io/last-lane': lastLane },
    managedFields: writes.map((w) => ({
      manager: w.manager,
      time: w.time,
      ...(w.status ? { subresource: 'status' } : {}),
    })),
  },
  status: { lastLane },
});

const apiServerEvent = (data: unknown) => ({ specversion: '1.0', id: '1', source: '/s', type: 't', data });

describe('the lane a write recorded (ADR 72)', () => {
  it('is the one our newest write recorded: the annotation for a spec write, status.lastLane for a status write', () => {
    const spec = { manager: RENDERER, time: '2026-12-03T10:00:01Z' };
    const status = { manager: APPLIER, status: true, time: '2026-12-03T10:00:02Z' };
    expect(recordedLane(manifest([spec]))).toBe('user');
    expect(recordedLane(manifest([spec, status]))).toBe('user');
    const specOnly = { ...manifest([spec, status]), status: {} };
    expect(recordedLane(specOnly), 'the status write recorded no lane').toBeUndefined();
  });

  it('ends with a newer write by anyone else; only the user lane counts; no managedFields, no lane', () => {
    const ours = { manager: RENDERER, time: '2026-12-03T10:00:01Z' };
    expect(recordedLane(manifest([ours, { manager: 'kubectl-edit', time: '2026-12-03T10:00:05Z' }]))).toBeUndefined();
    expect(recordedLane(manifest([ours], 'background'))).toBeUndefined();
    expect(recordedLane({ metadata: {} })).toBeUndefined();
    expect(recordedLane(undefined)).toBeUndefined();
  });

  it("an event's own lane wins over what its data recorded", () => {
    const data = manifest([{ manager: RENDERER, time: '2026-12-03T10:00:01Z' }]);
    expect(laneOf(apiServerEvent(data))).toBe('user');
    expect(laneOf({ ...apiServerEvent(data), [LANE]: 'background' })).toBe('background');
    expect(laneOf({ ...apiServerEvent({}), [LANE]: 'user' })).toBe('user');
    expect(laneOf({ ...apiServerEvent({}), [LANE]: 'other' })).toBeUndefined();
  });

  it("a call's writes record only the user lane; its events inherit the call's lane when their cause has none", async () => {
    const key = { kind: 'Manifest', apiVersion: 'v1', namespace: 'kcp-system', name: 'm' };
    expect(laneToRecord()).toBeUndefined();
    await withinCall({ lane: 'user' }, async () => {
      expect(laneToRecord()).toBe('user');
      expect(eventAbout('t', 'f', key, undefined)[LANE]).toBe('user');
      expect(eventAbout('t', 'f', key, { ...apiServerEvent({}), [LANE]: 'background' })[LANE]).toBe('background');
    });
    await withinCall({ lane: 'background' }, async () => expect(laneToRecord()).toBeUndefined());
    expect(eventAbout('t', 'f', key, undefined)[LANE]).toBeUndefined();
  });
});
