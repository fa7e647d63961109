// How long a WATCH is asked to last and how long it may stay silent (ADR 64). An API server's watch cache sends a
// bookmark to every watcher about once a minute: a server seen doing so gets long watches that end when silent for
// three minutes; any other server gets the 5–10 minute watches client-go's reflector asks for.

/** A watch's `timeoutSeconds` and how long without data ends it (the transport then PINGs the connection). */
export interface WatchTerms {
  readonly timeoutSeconds: number;
  readonly idleMs: number;
}

/** Three heartbeats missed: the connection or the server is gone. */
export const HEARTBEAT_STALL_MS = 180_000;
/** A bookmark this close to a watch's start or end (sent whether or not the server sends heartbeats) is no heartbeat. */
const MARGIN_MS = 30_000;

/** Heartbeats seen on one watched collection decide the terms of its next watch. */
export class WatchLiveness {
  private heartbeats = false;
  private openedAt = 0;
  private asked = 0;
  private readonly random: () => number;

  constructor(random: () => number = Math.random) {
    this.random = random;
  }

  /** The server has shown heartbeats since the last failure. */
  get long(): boolean {
    return this.heartbeats;
  }

  /** The terms of the next watch: long once the server has shown heartbeats, short before and after a failure. */
  next(): WatchTerms {
    const [min, spread] = this.heartbeats ? [1800, 1800] : [300, 300];
    this.asked = min + Math.floor(this.random() * spread);
    return { timeoutSeconds: this.asked, idleMs: this.heartbeats ? HEARTBEAT_STALL_MS : (this.asked + 60) * 1000 };
  }

  /** The server accepted the watch asked for last. */
  opened(now: number): void {
    this.openedAt = now;
  }

  /** A bookmark well inside the watch's time is a heartbeat. */
  bookmark(now: number): void {
    const inside = now >= this.openedAt + MARGIN_MS && now < this.openedAt + this.asked * 1000 - MARGIN_MS;
    if (this.openedAt && inside) this.heartbeats = true;
  }

  /** The watch failed (a stall among the causes): the next one is short until heartbeats show again. */
  failed(): void {
    this.heartbeats = false;
    this.openedAt = 0;
  }
}
