import type { KubeClient } from './client.ts';

/** Values kept per runtime client and key for at most `ttlMs` (the memos of ADR 17 and ADR 25). A new client (rotated
 * or evicted kubeconfig) starts empty: its entries go with the old client. */
export class PerClientMemo<T> {
  private readonly entries = new WeakMap<KubeClient, Map<string, { value: T; at: number }>>();
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  /** The value kept for `key` less than `withinMs` ago (the TTL unless given: a caller may look back further). */
  get(client: KubeClient, key: string, now = Date.now(), withinMs = this.ttlMs): T | undefined {
    const last = this.entries.get(client)?.get(key);
    return last && now - last.at < withinMs ? last.value : undefined;
  }

  set(client: KubeClient, key: string, value: T, now = Date.now()): void {
    let byKey = this.entries.get(client);
    if (!byKey) this.entries.set(client, (byKey = new Map()));
    byKey.set(key, { value, at: now });
  }

  delete(client: KubeClient, key: string): void {
    this.entries.get(client)?.delete(key);
  }
}
