import { describe, expect, it } from 'vitest';
import { HEARTBEAT_STALL_MS, WatchLiveness } from './watch-terms.ts';

const OPEN = 1_000_000;

describe('WatchLiveness (ADR 64)', () => {
  it('asks 5–10 minute watches that may stay silent until their end while no heartbeat was seen', () => {
    const low = new WatchLiveness(() => 0).next();
    const high = new WatchLiveness(() => 0.999).next();
    expect([low.timeoutSeconds, high.timeoutSeconds]).toEqual([300, 599]);
    expect(low.idleMs).toBe(360_000);
  });

  it('asks 30–60 minute watches that end after three silent minutes once a bookmark came well before the end', () => {
    const liveness = new WatchLiveness(() => 0);
    liveness.next();
    liveness.opened(OPEN);
    liveness.bookmark(OPEN + 60_000);
    expect(liveness.long).toBe(true);
    expect(liveness.next()).toEqual({ timeoutSeconds: 1800, idleMs: HEARTBEAT_STALL_MS });
  });

  it('does not take the bookmark sent just before the watch ends for a heartbeat', () => {
    const liveness = new WatchLiveness(() => 0);
    liveness.next();
    liveness.opened(OPEN);
    liveness.bookmark(OPEN + 298_000);
    expect(liveness.long).toBe(false);
    expect(liveness.next().timeoutSeconds).toBe(300);
  });

  it('ignores a bookmark of a watch it did not see open, and one right after the open', () => {
    const liveness = new WatchLiveness(() => 0);
    liveness.next();
    liveness.bookmark(OPEN);
    liveness.opened(OPEN);
    liveness.bookmark(OPEN + 1_000);
    expect(liveness.long).toBe(false);
  });

  it('goes back to short watches after a failure, until heartbeats show again', () => {
    const liveness = new WatchLiveness(() => 0);
    liveness.next();
    liveness.opened(OPEN);
    liveness.bookmark(OPEN + 60_000);
    liveness.failed();
    expect(liveness.next().timeoutSeconds).toBe(300);
    liveness.opened(OPEN + 600_000);
    liveness.bookmark(OPEN + 660_000);
    expect(liveness.next().timeoutSeconds).toBe(1800);
  });
});
