import type { CloudEvent } from 'cloudevents';
import { binaryMessage, withExtension } from './event-message.ts';
import { post } from './http-post.ts';
import type { EventingLog } from './log.ts';
import type { Destination, Trigger } from './triggers.ts';

/** An event a Trigger could not deliver: retries exhausted, a non-retryable answer, or the broker stopped. */
export interface DeadLetter {
  readonly trigger: string;
  readonly event: CloudEvent<unknown>;
  /** The last HTTP status (502 for an unusable 2xx answer); absent when there was no answer. */
  readonly status?: number;
  readonly error: string;
  readonly attempts: number;
  readonly at: Date;
}

/** The newest dead letters, at most `capacity` (the oldest are forgotten first; the count is kept by the broker). */
export class DeadLetterList {
  private readonly capacity: number;
  private readonly letters: DeadLetter[] = [];

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  add(letter: DeadLetter): void {
    this.letters.push(letter);
    if (this.letters.length > this.capacity) this.letters.shift();
  }

  list(): DeadLetter[] {
    return [...this.letters];
  }
}

/** PURE. The address Knative gives a Destination: a Serving Service's cluster-local URL (`http://<name>.<namespace>.
 * svc.cluster.local`), or the URI. What a dead letter names in `knativeerrordest`. */
export function knativeAddress(destination: Destination, namespace: string): string {
  const ref = destination.ref;
  return ref ? `http://${ref.name}.${ref.namespace ?? namespace}.svc.cluster.local` : (destination.uri ?? '');
}

/** Sends a dead letter to its Trigger's `deadLetterSink` as Knative does: the event with `knativeerrordest` (the
 * subscriber's address) and `knativeerrorcode` (its last status), in binary mode; `resolve` gives the sink's URL. */
export function sendToDeadLetterSink(resolve: (sink: Destination) => string | undefined, log: EventingLog) {
  return (letter: DeadLetter, trigger: Trigger): void => {
    const url = trigger.deadLetterSink && resolve(trigger.deadLetterSink);
    if (!url) return;
    let event = withExtension(
      letter.event,
      'knativeerrordest',
      knativeAddress(trigger.subscriber, trigger.namespace ?? 'default'),
    );
    if (letter.status !== undefined) event = withExtension(event, 'knativeerrorcode', letter.status);
    const message = binaryMessage(event);
    post(url, { headers: message.headers, body: message.body, timeoutMs: 10_000 }).then(
      (answer) => {
        if (answer.status >= 300)
          log.warn({ trigger: trigger.name, status: answer.status }, 'dead-letter sink refused the event');
      },
      (error: unknown) => log.warn({ trigger: trigger.name, err: String(error) }, 'dead-letter sink unreachable'),
    );
  };
}
