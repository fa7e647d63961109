/**
 * Calls that are one unit of work (ADR 26): like a controller's work queue, which holds a key once however many
 * events name it. While a call of a batch runs, the calls that arrive wait for one follow-up run and share its
 * outcome; the follow-up runs the work of the newest of them (highest resourceVersion), so its reads are at least as
 * fresh as every joined event asked for. Per function instance, in memory; different batches run concurrently.
 */
export class Batches {
  private readonly batches = new Map<string, Batch>();
  /** Calls that shared another call's run instead of running themselves. */
  joined = 0;

  run<T>(batch: string, revision: bigint, work: () => Promise<T>): Promise<T> {
    const current = this.batches.get(batch);
    if (!current) {
      const result = work();
      this.batches.set(batch, { settled: result.then(noop, noop) });
      this.continueAfter(batch);
      return result;
    }
    this.joined += current.next ? 1 : 0;
    const next = current.next ?? (current.next = followUp(revision, work));
    if (revision >= next.revision) Object.assign(next, { revision, work });
    return next.result as Promise<T>;
  }

  private continueAfter(batch: string): void {
    const current = this.batches.get(batch);
    void current?.settled.then(() => {
      const next = current.next;
      if (!next) return void this.batches.delete(batch);
      this.batches.set(batch, { settled: next.result.then(noop, noop) });
      next.start();
      this.continueAfter(batch);
    });
  }
}

interface Batch {
  settled: Promise<void>;
  next?: FollowUp;
}

interface FollowUp {
  revision: bigint;
  work: () => Promise<unknown>;
  start: () => void;
  result: Promise<unknown>;
}

function followUp(revision: bigint, work: () => Promise<unknown>): FollowUp {
  let start: () => void = noop;
  const gate = new Promise<void>((resolve) => (start = resolve));
  const next: FollowUp = { revision, work, start: () => start(), result: gate.then(() => next.work()) };
  return next;
}

const noop = () => undefined;
