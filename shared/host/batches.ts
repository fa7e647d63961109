/** Calls that are one unit of work, like a work-queue key (ADR 26): calls arriving while one runs share one follow-up
 * run of the newest (highest resourceVersion); a settling call makes an idle batch wait `settleMs` for more. Per
 * function instance, in memory; different batches run concurrently. */
export class Batches {
  private readonly batches = new Map<string, Batch>();
  /** Calls that shared another call's run instead of running themselves. */
  joined = 0;

  run<T>(batch: string, revision: bigint, work: () => Promise<T>, settleMs = 0): Promise<T> {
    let state = this.batches.get(batch);
    if (!state) this.batches.set(batch, (state = {}));
    if (state.next) {
      this.joined++;
      if (revision >= state.next.revision) Object.assign(state.next, { revision, work });
    } else state.next = followUp(revision, work);
    const { result } = state.next;
    if (!state.running && settleMs <= 0) this.launch(batch);
    else if (!state.running && !state.timer) state.timer = setTimeout(() => this.launch(batch), settleMs).unref();
    return result as Promise<T>;
  }

  /** Starts the batch's waiting follow-up; when it is done, the next one (if calls came meanwhile) at once. */
  private launch(batch: string): void {
    const state = this.batches.get(batch);
    if (!state?.next || state.running) return;
    clearTimeout(state.timer);
    state.timer = undefined;
    const next = state.next;
    state.next = undefined;
    next.start();
    state.running = next.result.then(noop, noop).then(() => {
      state.running = undefined;
      if (state.next) this.launch(batch);
      else this.batches.delete(batch);
    });
  }
}

interface Batch {
  running?: Promise<void> | undefined;
  next?: FollowUp | undefined;
  timer?: NodeJS.Timeout | undefined;
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
