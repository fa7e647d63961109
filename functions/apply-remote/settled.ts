// Modules a call found as desired, and the versions it found them at (ADR 92): a drift check that finds the Manifest and
// every object it records at those versions again has nothing to render, compare or write, and stops after its reads.
import { syncedId, type Manifest, type SyncedResource } from '../../shared/core/manifest.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { ListedReads } from '../../shared/kube/listed-reads.ts';
import { refOfSynced, syncedOf, type RuntimeObject } from '../../shared/render/render.ts';

/** What a Manifest was settled at: its resourceVersion, and its synced objects' in the order it records them. */
interface Settled {
  manifest: string;
  objects: string;
}

/** PURE. The resourceVersions of `synced`, in its order, as `found` has them; undefined when one is missing. */
export function versionsOf(
  synced: readonly SyncedResource[],
  found: readonly (RuntimeObject | null | undefined)[],
): string | undefined {
  const byId = new Map(found.flatMap((o) => (o ? [[syncedId(syncedOf(o)), versionOf(o)]] : [])));
  const versions = synced.map((r) => byId.get(syncedId(r)));
  return versions.every((v): v is string => Boolean(v)) ? versions.join(',') : undefined;
}

const versionOf = (o: Pick<RuntimeObject, 'metadata'>) => (o.metadata as { resourceVersion?: string }).resourceVersion;

/** Per runtime client (a new client, after a rotated kubeconfig, starts empty) and Manifest uid; per instance, so a
 * restart or another instance checks in full once. */
export class SettledModules {
  private readonly byRuntime = new WeakMap<KubeClient, Map<string, Settled>>();

  /** A call left the module Ready with `applied` as desired (found so or written) and its status recording `synced`;
   * `version`: the Manifest's resourceVersion its status write produced (none: the one it read). */
  remember(
    runtime: KubeClient,
    manifest: Manifest,
    at: { version: string | undefined; synced: readonly SyncedResource[] },
    applied: readonly RuntimeObject[],
  ): void {
    const { uid } = manifest.metadata;
    const resourceVersion = at.version ?? manifest.metadata.resourceVersion;
    const objects = versionsOf(at.synced, applied);
    if (!uid || !resourceVersion || objects === undefined) return this.forget(runtime, manifest);
    let byUid = this.byRuntime.get(runtime);
    if (!byUid) this.byRuntime.set(runtime, (byUid = new Map()));
    byUid.set(uid, { manifest: resourceVersion, objects });
  }

  forget(runtime: KubeClient, manifest: Manifest): void {
    if (manifest.metadata.uid) this.byRuntime.get(runtime)?.delete(manifest.metadata.uid);
  }

  /** True when the Manifest and every object it records are at the versions remembered, read through the drift
   * check's lists (cluster-scoped ones once per API server); anything moved or unreadable forgets the module (the full
   * check that follows remembers it again). */
  async unchanged(runtime: KubeClient, manifest: Manifest, listed: ListedReads): Promise<boolean> {
    const settled = manifest.metadata.uid ? this.byRuntime.get(runtime)?.get(manifest.metadata.uid) : undefined;
    if (!settled || settled.manifest !== manifest.metadata.resourceVersion) return false;
    const synced = manifest.status?.synced ?? [];
    const found = await Promise.all(synced.map((r) => listed.readOnServer<RuntimeObject>(runtime, refOfSynced(r))));
    if (versionsOf(synced, found) === settled.objects) return true;
    this.forget(runtime, manifest);
    return false;
  }
}
