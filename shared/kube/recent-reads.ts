import { jsonCopy } from './json-copy.ts';

/** How long an object read through a client stands in for an `any` read of it (ADR 88): one drift check's functions
 * (resolve-template, aggregate-status) reading the same runtime Kyma a few seconds apart. */
export const RECENT_READ_MS = 15_000;

interface Entry {
  read: Promise<unknown>;
  at: number;
}

/** The single objects one client read lately for `any` reads, by object path (ADR 88). An `any` read (a drift
 * check's: the API server's watch cache would do) takes one kept from within the TTL; a live read renews one kept, a
 * write to the object (its status included) forgets it. Kept objects go after the TTL; callers get copies. */
export class RecentReads {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;

  constructor(ttlMs = RECENT_READ_MS) {
    this.ttlMs = ttlMs;
  }

  /** The object at `path`: for `any`, kept from within the TTL or read through `read` and kept; live, read and kept
   * only in place of one kept. */
  async get<T>(path: string, any: boolean, read: () => Promise<T>, now = Date.now()): Promise<T> {
    const kept = this.entries.get(path);
    if (any && kept && now - kept.at < this.ttlMs) return jsonCopy((await kept.read) as T);
    const pending = read();
    if (!any && !kept) return pending;
    this.keep(path, { read: pending, at: now });
    return jsonCopy(await pending);
  }

  /** A write went to `path` (with its query and subresource, or a create's collection path and the new name). */
  forget(path: string): void {
    this.entries.delete(path.split('?')[0]?.replace(/\/status$/, '') ?? '');
  }

  private keep(path: string, entry: Entry): void {
    this.entries.set(path, entry);
    const drop = () => this.entries.get(path) === entry && this.entries.delete(path);
    entry.read.catch(drop);
    setTimeout(drop, this.ttlMs).unref();
  }
}
