import type { CloudEvent } from 'cloudevents';

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
