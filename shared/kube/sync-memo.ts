import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical.ts';
import type { KubeClient } from './client.ts';
import { PerClientMemo } from './per-client.ts';

/** What a function instance last pushed to a runtime for an object, and when (ADR 17): the same push through the same
 * client within `ttlMs` is skipped. A new client (rotated or evicted kubeconfig) starts empty; callers force a push on
 * resync events, so runtime-side drift is repaired within the drift period. */
export class SyncMemo {
  private readonly pushed: PerClientMemo<string>;
  /** Pushes under way, per client and key, with the fingerprint of what they push. */
  private readonly running = new WeakMap<KubeClient, Map<string, { fingerprint: string; done: Promise<unknown> }>>();

  constructor(ttlMs: number) {
    this.pushed = new PerClientMemo(ttlMs);
  }

  /** True when `desired` went to `client` for `key` less than the TTL ago. */
  fresh(client: KubeClient, key: string, desired: unknown, now = Date.now()): boolean {
    const last = this.pushed.get(client, key, now);
    return last !== undefined && last === fingerprintOf(desired);
  }

  /** True when something went to `client` for `key` less than the TTL (or `withinMs`) ago, whatever it was. */
  known(client: KubeClient, key: string, now = Date.now(), withinMs?: number): boolean {
    return this.pushed.get(client, key, now, withinMs) !== undefined;
  }

  remember(client: KubeClient, key: string, desired: unknown, now = Date.now()): void {
    this.pushed.set(client, key, fingerprintOf(desired), now);
  }

  forget(client: KubeClient, key: string): void {
    this.pushed.delete(client, key);
  }

  /** `push` of `desired` to `client` for `key`, once (ADR 54): skipped (undefined) when pushed less than `reuseMs` ago
   * (the TTL unless given) and not `force`d; a call while the same push is under way shares its outcome. */
  async once<T>(
    client: KubeClient,
    key: string,
    desired: unknown,
    force: boolean,
    push: () => Promise<T>,
    reuseMs?: number,
  ): Promise<T | undefined> {
    const fingerprint = fingerprintOf(desired);
    let byKey = this.running.get(client);
    const running = byKey?.get(key);
    if (running?.fingerprint === fingerprint) return running.done as Promise<T>;
    if (!force && this.pushed.get(client, key, Date.now(), reuseMs) === fingerprint) return undefined;
    this.forget(client, key);
    const done = push().then((outcome) => {
      this.pushed.set(client, key, fingerprint);
      return outcome;
    });
    if (!byKey) this.running.set(client, (byKey = new Map()));
    const entry = { fingerprint, done };
    byKey.set(key, entry);
    const over = () => void (byKey.get(key) === entry && byKey.delete(key));
    done.then(over, over);
    return done;
  }
}

const fingerprintOf = (desired: unknown) => createHash('sha256').update(canonicalJson(desired)).digest('hex');

const prints = new WeakMap<object, string>();

/** The fingerprint of an object never changed once made (a watch cache's object, the KCP's CRDs as read), taken once
 * per object: a push's fingerprint can name such parts by it instead of hashing their content on every call. */
export function printOf(object: object): string {
  let print = prints.get(object);
  if (print === undefined) prints.set(object, (print = fingerprintOf(object)));
  return print;
}
