import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical.ts';
import type { KubeClient } from './client.ts';
import { PerClientMemo } from './per-client.ts';

/** What a function instance last pushed to a runtime for an object, and when (ADR 17): the same push through the same
 * client within `ttlMs` is skipped. A new client (rotated or evicted kubeconfig) starts empty; callers force a push on
 * resync events, so runtime-side drift is repaired within the drift period. */
export class SyncMemo {
  private readonly pushed: PerClientMemo<string>;

  constructor(ttlMs: number) {
    this.pushed = new PerClientMemo(ttlMs);
  }

  /** True when `desired` went to `client` for `key` less than the TTL ago. */
  fresh(client: KubeClient, key: string, desired: unknown, now = Date.now()): boolean {
    const last = this.pushed.get(client, key, now);
    return last !== undefined && last === fingerprintOf(desired);
  }

  /** True when something went to `client` for `key` less than the TTL ago (whatever it was). */
  known(client: KubeClient, key: string, now = Date.now()): boolean {
    return this.pushed.get(client, key, now) !== undefined;
  }

  remember(client: KubeClient, key: string, desired: unknown, now = Date.now()): void {
    this.pushed.set(client, key, fingerprintOf(desired), now);
  }

  forget(client: KubeClient, key: string): void {
    this.pushed.delete(client, key);
  }
}

const fingerprintOf = (desired: unknown) => createHash('sha256').update(canonicalJson(desired)).digest('hex');
