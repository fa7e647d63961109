import type { Kyma } from '../../shared/domain/kyma.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';

/**
 * The runtime Kyma as last read through a runtime client (ADR 25). A change of its spec reaches resolve-template as a
 * `resync.due` event from the runtime watch (user lane), and the resync's events re-read it too; the KCP's own events
 * about a Kyma — mostly its status moving while modules install — reuse what was read, for at most `ttlMs`. A new
 * client (rotated or evicted kubeconfig) starts empty.
 */
export class RemoteKymaMemo {
  private readonly read = new WeakMap<KubeClient, Map<string, { kyma: Kyma; at: number }>>();
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  recall(client: KubeClient, key: string, now = Date.now()): Kyma | undefined {
    const last = this.read.get(client)?.get(key);
    return last && now - last.at < this.ttlMs ? last.kyma : undefined;
  }

  /** What was read (or written) just now; undefined = the runtime has none (it is read again next time). */
  remember(client: KubeClient, key: string, kyma: Kyma | undefined, now = Date.now()): void {
    let byKey = this.read.get(client);
    if (!byKey) this.read.set(client, (byKey = new Map()));
    if (kyma) byKey.set(key, { kyma, at: now });
    else byKey.delete(key);
  }
}
