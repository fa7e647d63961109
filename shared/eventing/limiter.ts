/** Runs at most `limit` tasks at once; the others wait in arrival order. */
export class ConcurrencyLimiter {
  private readonly limit: number;
  private running = 0;
  /** A queue with a moving head: taking the next waiter is O(1) even with tens of thousands waiting. */
  private waiting: (() => void)[] = [];
  private head = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting[this.head];
      if (next) {
        this.head++;
        if (this.head > 1024 && this.head * 2 > this.waiting.length) {
          this.waiting = this.waiting.slice(this.head);
          this.head = 0;
        }
        next();
      } else this.running--;
    }
  }
}
