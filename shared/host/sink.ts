import { HTTP, type CloudEvent } from 'cloudevents';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransientError } from './errors.ts';

/** Sends fan-out events to the broker ingress (Knative's K_SINK), binary mode, 3 tries with backoff. */
export type EventSink = (event: CloudEvent<unknown>) => Promise<void>;

export function httpSink(url: string): EventSink {
  return async (event) => {
    const { headers, body } = HTTP.binary(event);
    let last = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt) await sleep(100 * 2 ** attempt);
      try {
        const response = await fetch(url, { method: 'POST', headers: headers as Record<string, string>, body: body as string, signal: AbortSignal.timeout(10_000) });
        if (response.ok) return;
        last = `status ${response.status}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
    }
    throw new TransientError(`broker ingress did not accept event ${event.type}: ${last}`);
  };
}
