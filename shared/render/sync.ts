import { syncedId, type SyncedResource } from '../core/manifest.ts';
import type { KubeClient } from '../kube/client.ts';
import { applyAll } from './apply.ts';
import { prune, pruneWaves } from './prune.ts';
import type { Ownership } from './ownership.ts';
import { syncedOf, type RuntimeObject } from './render.ts';

export type SyncResult =
  | { applied: RuntimeObject[]; target: SyncedResource[]; kept: string[]; held?: SyncedResource[] }
  | { pruning: SyncedResource[]; target: SyncedResource[] }
  | { error: string; target: SyncedResource[] };

/**
 * A module's prepared objects onto a cluster — the core of apply-remote and of `installModule`: what `previous` had
 * and these objects have not is deleted first (two waves; `pruning` answers what is still going), then every object
 * is applied where it is not already so. `shared`: cluster-scoped objects are used by others and never pruned.
 * `newWithoutRead`: objects `previous` does not name were never applied by this caller and are applied without
 * reading them first (ADR 27) — namespaced ones only on a `shared` cluster, whose cluster-scoped objects others apply.
 * `ownership`: objects another installed module ships are left to the module that holds them, never pruned (ADR 33);
 * their reasons are in `kept`. `sameLayer`: the objects come from the layer `previous` was synced from (upstream's
 * `sync-oci-ref` guard, ADR 40): what `previous` has and they have not is never pruned but answered as `held`.
 */
export async function syncObjects(cluster: KubeClient, objects: RuntimeObject[], previous: SyncedResource[], options: { fieldManager: string; shared?: boolean; newWithoutRead?: boolean; ownership?: Ownership; sameLayer?: boolean }): Promise<SyncResult> {
  const target = objects.map(syncedOf);
  const stale = pruneWaves(previous, target, options.shared ?? false);
  const held = options.sameLayer ? stale.flat() : [];
  const pruning = held.length ? [] : await prune(cluster, stale, options.ownership);
  if (pruning.length) return { pruning, target };
  const known = new Set(previous.map(syncedId));
  const absent = (object: RuntimeObject) => options.newWithoutRead === true && !known.has(syncedId(syncedOf(object))) && !(options.shared && !object.metadata.namespace);
  const applied = await applyAll(cluster, objects, { fieldManager: options.fieldManager, absent, shared: options.shared ?? false, ...(options.ownership ? { ownership: options.ownership } : {}) });
  if ('error' in applied) return { error: applied.error, target };
  return { applied: applied.objects, target, kept: applied.kept, ...(held.length ? { held } : {}) };
}

/** Removes everything `synced` names (custom resources first, then CRDs, namespaces and the operator); answers what is
 * still there — call again until it is empty. */
export function removeObjects(cluster: KubeClient, synced: SyncedResource[], shared = false, ownership?: Ownership): Promise<SyncedResource[]> {
  return prune(cluster, pruneWaves(synced, [], shared), ownership);
}
