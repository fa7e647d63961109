import type { Kyma } from '../../shared/core/kyma.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { PerClientMemo } from '../../shared/kube/per-client.ts';

/**
 * The runtime Kyma as last read through a runtime client (ADR 25). A change of its spec reaches resolve-template as a
 * `resync.due` event from the runtime watch (user lane), and the resync's events re-read it too; the KCP's own events
 * about a Kyma — mostly its status moving while modules install — reuse what was read, for at most `ttlMs`. A new
 * client (rotated or evicted kubeconfig) starts empty.
 */
export class RemoteKymaMemo {
  private readonly read: PerClientMemo<Kyma>;

  constructor(ttlMs: number) {
    this.read = new PerClientMemo(ttlMs);
  }

  recall(client: KubeClient, key: string, now = Date.now()): Kyma | undefined {
    return this.read.get(client, key, now);
  }

  /** What was read (or written) just now; undefined = the runtime has none (it is read again next time). */
  remember(client: KubeClient, key: string, kyma: Kyma | undefined, now = Date.now()): void {
    if (kyma) this.read.set(client, key, kyma, now);
    else this.read.delete(client, key);
  }
}
