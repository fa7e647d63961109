import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { type KubeClient } from '../../shared/kube/client.ts';
import { refOf } from '../../shared/kube/types.ts';
import type { HeldCrd } from '../../shared/render/crd-holders.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { managerOf } from '../../shared/render/readiness.ts';

/** How long a retry may rely on the last full sync of a module still rolling out. */
const TRUST_MS = 60_000;

/** A sync of a module still rolling out: when its objects were applied, as stored, and the default CR's message. */
export interface Recalled {
  at: number;
  applied: RuntimeObject[];
  target: SyncedResource[];
  crMessage: string;
  kept: string[];
  held?: SyncedResource[];
  heldCrds?: HeldCrd[];
}
interface Pending extends Recalled {
  uid: string;
  generation: number;
}

/** What the last full sync of a Manifest applied while its module was still rolling out: its retries re-read only the
 * manager workload, for at most a minute, same generation and client (ADR 24); resync events always sync in full. */
export class Rollouts {
  private readonly pending = new WeakMap<KubeClient, Map<string, Pending>>();

  /** `at`: when the objects were applied (a retry that only re-read the workload keeps the full sync's time). */
  remember(runtime: KubeClient, manifest: Manifest, sync: Recalled): void {
    let byKey = this.pending.get(runtime);
    if (!byKey) this.pending.set(runtime, (byKey = new Map()));
    byKey.set(keyOf(manifest), {
      uid: manifest.metadata.uid ?? '',
      generation: manifest.metadata.generation ?? 0,
      ...sync,
    });
  }

  forget(runtime: KubeClient, manifest: Manifest): void {
    this.pending.get(runtime)?.delete(keyOf(manifest));
  }

  /** The last full sync with the manager workload read again; undefined when a full sync is due. */
  async refreshed(runtime: KubeClient, manifest: Manifest, now = Date.now()): Promise<Recalled | undefined> {
    const last = this.pending.get(runtime)?.get(keyOf(manifest));
    if (
      !last ||
      last.uid !== (manifest.metadata.uid ?? '') ||
      last.generation !== (manifest.metadata.generation ?? 0) ||
      now - last.at > TRUST_MS
    )
      return undefined;
    const manager = managerOf(last.applied);
    const live = manager && (await runtime.get<RuntimeObject>(refOf(manager)).catch(() => undefined));
    if (!manager || !live) return undefined;
    return { ...last, applied: last.applied.map((o) => (o === manager ? live : o)) };
  }
}

const keyOf = (manifest: Manifest) => `${manifest.metadata.namespace ?? ''}/${manifest.metadata.name}`;
