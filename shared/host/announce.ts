// A write made in the user lane is announced at once (ADR 73): the API server's own event about it comes through
// Knative's ApiServerSource, which sends each kind's changes one at a time and fell a minute behind while a fleet
// installed. The announcement is that event, sent by the writer in the user lane; the late one is handled as any.
import { apiServerEvent, type ResourceChange, type WatchedObject } from '../kube/apiserver-events.ts';
import { EVENT_SOURCE_PREFIX, LANE, LANE_USER } from './events.ts';
import { laneToRecord } from './lane.ts';
import type { EventSink } from './sink.ts';
import { currentTraceparent } from './trace.ts';

/** Announces a write of the current call: only in the user lane, only when `enabled`. */
export type Announce = (change: ResourceChange, written: WatchedObject) => Promise<void>;

/** The announcer of function `fn` (LIFECYCLE_ANNOUNCE_USER_WRITES). A failed send is left to the API server's own
 * event, which still comes. */
export function announcer(sink: EventSink, fn: string, enabled: boolean): Announce {
  return async (change, written) => {
    if (!enabled || laneToRecord() !== LANE_USER) return;
    const extensions = { [LANE]: LANE_USER, traceparent: currentTraceparent() };
    await sink(apiServerEvent(change, `${EVENT_SOURCE_PREFIX}/${fn}`, written, extensions)).catch(() => undefined);
  };
}
