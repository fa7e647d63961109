/** A task waiting for a slot: the lowest rank goes first, arrival order among equal ranks. */
interface Waiter {
  rank: number;
  seq: number;
  start: () => void;
}

/**
 * Runs at most `limit` tasks at once; the others wait, the lowest `rank` first and in arrival order among equal
 * ranks (all ranks equal: plain arrival order). A binary heap, so taking the next waiter stays O(log n) with tens of
 * thousands waiting.
 */
export class ConcurrencyLimiter {
  private readonly limit: number;
  private running = 0;
  private readonly heap: Waiter[] = [];
  private seq = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.heap.length;
  }

  async run<T>(task: () => Promise<T>, rank = 0): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((start) => this.push({ rank, seq: this.seq++, start }));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.pop();
      if (next) next.start();
      else this.running--;
    }
  }

  private push(waiter: Waiter): void {
    const heap = this.heap;
    heap.push(waiter);
    for (let i = heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i] as Waiter, heap[parent] as Waiter)) break;
      [heap[i], heap[parent]] = [heap[parent] as Waiter, heap[i] as Waiter];
      i = parent;
    }
  }

  private pop(): Waiter | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (!top || !last || heap.length === 0) return top;
    heap[0] = last;
    for (let i = 0; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let least = i;
      if (l < heap.length && before(heap[l] as Waiter, heap[least] as Waiter)) least = l;
      if (r < heap.length && before(heap[r] as Waiter, heap[least] as Waiter)) least = r;
      if (least === i) break;
      [heap[i], heap[least]] = [heap[least] as Waiter, heap[i] as Waiter];
      i = least;
    }
    return top;
  }
}

const before = (a: Waiter, b: Waiter) => a.rank < b.rank || (a.rank === b.rank && a.seq < b.seq);
