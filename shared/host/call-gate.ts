// The calls an instance runs at once (ADR 72). On Knative the Service's containerConcurrency only bounds what an
// instance holds; Serving's queue-proxy starts what waits in order of arrival, so a user's change would wait behind
// a fleet's installs. Held here instead, the waiting calls start by lane.
import { LANE_BACKGROUND, LANE_USER } from './events.ts';
import type { Lane } from './lane.ts';

/** PURE. Which waiting calls start first: the user lane, then the API server's events, then the background lane. */
export const rankOfLane = (lane: Lane | undefined): 0 | 1 | 2 =>
  lane === LANE_USER ? 0 : lane === LANE_BACKGROUND ? 2 : 1;

/** At most `limit` calls run at once; the others wait, and each free slot goes to the first of the best rank. */
export class CallGate {
  private running = 0;
  private readonly waiting: (() => void)[][] = [[], [], []];
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit > 0 ? limit : Number.POSITIVE_INFINITY;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.waiting.reduce((n, q) => n + q.length, 0);
  }

  async run<T>(rank: 0 | 1 | 2, work: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting[rank]?.push(resolve));
    try {
      return await work();
    } finally {
      this.handOn();
    }
  }

  /** A finished call's slot goes to the next waiting call, or is freed. */
  private handOn(): void {
    const next = this.waiting.find((q) => q.length > 0)?.shift();
    if (next) next();
    else this.running -= 1;
  }
}
