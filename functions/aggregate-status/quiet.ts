// Kymas a drift check found with nothing to do, and what it saw (ADR 93): the next drift check that finds the Kyma,
// its Manifests, the catalog and the runtime Kyma at the same versions, its push still current, stops after its reads.
import type { KubeClient } from '../../shared/kube/client.ts';

/** What a drift check saw when it found nothing to do: the KCP Kyma's resourceVersion (after its own status write),
 * its Manifests' and the catalog's (`versionsOf`), and the runtime Kyma's (as found or mirrored). */
export interface KymaSeen {
  kyma: string;
  manifests: string;
  catalog: string;
  runtimeKyma: string;
}

/** Per runtime client (a new client, after a rotated kubeconfig, starts empty) and Kyma uid; per instance, so a
 * restart or another instance checks in full once. */
export class QuietKymas {
  private readonly byRuntime = new WeakMap<KubeClient, Map<string, KymaSeen>>();

  remember(runtime: KubeClient, uid: string, seen: KymaSeen): void {
    let byUid = this.byRuntime.get(runtime);
    if (!byUid) this.byRuntime.set(runtime, (byUid = new Map()));
    byUid.set(uid, seen);
  }

  /** What the last drift check that found nothing to do saw, if the Kyma is still at the version it left. */
  seen(runtime: KubeClient, uid: string, kymaVersion: string | undefined): KymaSeen | undefined {
    const seen = this.byRuntime.get(runtime)?.get(uid);
    return seen && seen.kyma === kymaVersion ? seen : undefined;
  }

  forget(runtime: KubeClient, uid: string): void {
    this.byRuntime.get(runtime)?.delete(uid);
  }
}
