// Which lane a call is in (ADR 25, 68, 72): its event's `lifecyclelane`, else the lane our last write of the object
// recorded — the API server's events carry none, so without it the steps after a user's change lose its lane.
import { ANNOTATION, OUR_MANAGERS } from '../core/vocabulary.ts';
import { callContext } from './call-context.ts';
import { LANE, LANE_BACKGROUND, LANE_USER, type EventAttributes } from './events.ts';
import { newestOwnWrite } from './trace.ts';

export type Lane = typeof LANE_USER | typeof LANE_BACKGROUND;

interface Recorded {
  metadata?: { annotations?: Record<string, string> };
  status?: { lastLane?: unknown };
}

/** PURE. The lane our newest write of `object` recorded (status.lastLane for a status write, else the last-lane
 * annotation); only the user lane is recorded, and a newer write by anyone else ends it. */
export function recordedLane(object: unknown): Lane | undefined {
  const newest = newestOwnWrite(object, OUR_MANAGERS);
  if (!newest) return undefined;
  const recorded = object as Recorded;
  const lane =
    newest.subresource === 'status' ? recorded.status?.lastLane : recorded.metadata?.annotations?.[ANNOTATION.lastLane];
  return lane === LANE_USER ? LANE_USER : undefined;
}

/** PURE. An event's lane: its own `lifecyclelane`, else the one recorded by our write the event is about. */
export function laneOf(event: EventAttributes): Lane | undefined {
  const own = event[LANE];
  if (own === LANE_USER || own === LANE_BACKGROUND) return own;
  return recordedLane((event as { data?: unknown }).data);
}

/** What a write of the current call records of its lane: `user` in the user lane, else nothing. */
export const laneToRecord = (): typeof LANE_USER | undefined =>
  callContext().lane === LANE_USER ? LANE_USER : undefined;
