import { HTTP, type CloudEvent } from 'cloudevents';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransientError } from './errors.ts';
import type { EventLog } from './logger.ts';

/** Sends fan-out events to the broker ingress (Knative's K_SINK), binary mode, 3 tries with backoff. */
export type EventSink = (event: CloudEvent<unknown>) => Promise<void>;

export function httpSink(url: string): EventSink {
  return async (event) => {
    const { headers, body } = HTTP.binary(event);
    let last = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt) await sleep(100 * 2 ** attempt);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: headers as Record<string, string>,
          body: body as string,
          signal: AbortSignal.timeout(10_000),
        });
        if (response.ok) return;
        last = `status ${response.status}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
    }
    throw new TransientError(`broker ingress did not accept event ${event.type}: ${last}`);
  };
}

const SOURCE_RETRIES = 5;
const SOURCE_FIRST_BACKOFF_MS = 50;

/** Sends as Knative's source adapters do: 1 try + 5 retries with exponential backoff from 50 ms, then the event is
 * lost (logged). Never rejects. */
export async function sendToSink(sink: EventSink, event: CloudEvent<unknown>, log: EventLog): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await sink(event);
      return;
    } catch (e) {
      if (attempt >= SOURCE_RETRIES) {
        log.error(
          { eventId: event.id, type: event.type, subject: event.subject, err: e },
          'event source could not send an event; it is lost',
        );
        return;
      }
      await sleep(SOURCE_FIRST_BACKOFF_MS * 2 ** attempt);
    }
  }
}
