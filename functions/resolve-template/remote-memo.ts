import type { Kyma, SpecSource } from '../../shared/core/kyma.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { PerClientMemo } from '../../shared/kube/per-client.ts';

/** The runtime Kyma as last read through a runtime client (ADR 25, ADR 43): the runtime watch's and the resync's
 * `resync.due` events re-read it, the KCP's own events about a Kyma reuse it for at most `ttlMs`; a new client starts
 * empty. */
export class RemoteKymaMemo {
  private readonly read: PerClientMemo<Kyma>;

  constructor(ttlMs: number) {
    this.read = new PerClientMemo(ttlMs);
  }

  /** What was read, only while it is the generation the Kyma's status records as resolved (`recorded`): another
   * instance that read a newer runtime Kyma since has recorded its generation, and this memo is stale (ADR 43). */
  recall(client: KubeClient, key: string, recorded: SpecSource | undefined, now = Date.now()): Kyma | undefined {
    const kept = this.read.get(client, key, now);
    return kept && recordsAsResolved(kept, recorded) ? kept : undefined;
  }

  /** Whether a runtime Kyma was read or created through `client` for `key` within the TTL, whatever its generation:
   * then it exists, even where the Kyma as read (a watch cache behind this instance's own write) has no status yet. */
  holds(client: KubeClient, key: string, now = Date.now()): boolean {
    return this.read.get(client, key, now) !== undefined;
  }

  /** What was read (or written) just now; undefined = the runtime has none (it is read again next time). */
  remember(client: KubeClient, key: string, kyma: Kyma | undefined, now = Date.now()): void {
    if (kyma) this.read.set(client, key, kyma, now);
    else this.read.delete(client, key);
  }
}

/** PURE. The Kyma's status records `remote`'s generation as the one its module list was resolved from. */
export function recordsAsResolved(remote: Kyma, recorded: SpecSource | undefined): boolean {
  return (
    recorded?.from === 'runtime' &&
    recorded.generation !== undefined &&
    recorded.generation === remote.metadata.generation
  );
}
