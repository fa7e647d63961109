import type { CloudEvent } from 'cloudevents';
import { setTimeout as delay } from 'node:timers/promises';
import type { EventingLog } from './log.ts';

/** Where an event source sends its events, e.g. `(event) => broker.publish(event)`. */
export type EventSink = (event: CloudEvent<unknown>) => Promise<void>;

const RETRIES = 5;
const FIRST_BACKOFF_MS = 50;

/**
 * Sends like Knative's source adapters: 1 try + 5 retries with exponential backoff from 50 ms, then the event is
 * lost (logged). Never rejects.
 */
export async function sendToSink(sink: EventSink, event: CloudEvent<unknown>, log: EventingLog): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await sink(event);
      return;
    } catch (e) {
      if (attempt >= RETRIES) {
        log.error({ eventId: event.id, type: event.type, subject: event.subject, err: e }, 'event source could not send an event; it is lost');
        return;
      }
      await delay(FIRST_BACKOFF_MS * 2 ** attempt);
    }
  }
}
