import { syncedId, type SyncedResource } from '../core/manifest.ts';
import type { KubeClient } from '../kube/client.ts';
import { applyAll, type ReadLive } from './apply.ts';
import { prune, pruneWaves } from './prune.ts';
import type { Ownership } from './ownership.ts';
import { customResourcesOf, type HeldCrd } from './crd-holders.ts';
import { syncedOf, type RuntimeObject } from './render.ts';

export type SyncResult =
  | {
      applied: RuntimeObject[];
      target: SyncedResource[];
      kept: string[];
      held?: SyncedResource[];
      heldCrds?: HeldCrd[];
      prunedWithCrs?: HeldCrd[];
    }
  | { pruning: SyncedResource[]; target: SyncedResource[]; heldCrds?: HeldCrd[]; prunedWithCrs?: HeldCrd[] }
  | { error: string; target: SyncedResource[] };

export interface SyncOptions {
  fieldManager: string;
  shared?: boolean;
  newWithoutRead?: boolean;
  ownership?: Ownership;
  sameLayer?: boolean;
  /** CRDs that may be pruned although custom resources of them exist (they are deleted with them, issue 34). */
  allowCrdPrune?: readonly string[];
  /** How objects are read before they are applied (applyAll's `read`). */
  read?: ReadLive;
}

/** A module's prepared objects onto a cluster (apply-remote, `installModule`): what `previous` had and these lack is
 * pruned first (`pruning` while it goes), then what is not already so is applied. Options: `newWithoutRead` (ADR 27),
 * `shared` (ADR 13), `ownership` (ADR 33), `sameLayer` → `held` (ADR 40); CRDs still in use → `heldCrds` (ADR 41). */
export async function syncObjects(
  cluster: KubeClient,
  objects: RuntimeObject[],
  previous: SyncedResource[],
  options: SyncOptions,
): Promise<SyncResult> {
  const target = objects.map(syncedOf);
  const stale = pruneWaves(previous, target, options.shared ?? false);
  const held = options.sameLayer ? stale.flat() : [];
  const guarded = held.length
    ? { waves: [], heldCrds: [], prunedWithCrs: [] }
    : await guardCrds(cluster, stale, options.allowCrdPrune ?? []);
  const crds = {
    ...(guarded.heldCrds.length ? { heldCrds: guarded.heldCrds } : {}),
    ...(guarded.prunedWithCrs.length ? { prunedWithCrs: guarded.prunedWithCrs } : {}),
  };
  const pruning = held.length ? [] : await prune(cluster, guarded.waves, options.ownership);
  if (pruning.length) return { pruning, target, ...crds };
  const known = new Set(previous.map(syncedId));
  const absent = (object: RuntimeObject) =>
    options.newWithoutRead === true &&
    !known.has(syncedId(syncedOf(object))) &&
    !(options.shared && !object.metadata.namespace);
  const applied = await applyAll(cluster, objects, {
    fieldManager: options.fieldManager,
    absent,
    shared: options.shared ?? false,
    ...(options.ownership ? { ownership: options.ownership } : {}),
    ...(options.read ? { read: options.read } : {}),
  });
  if ('error' in applied) return { error: applied.error, target };
  return { applied: applied.objects, target, kept: applied.kept, ...(held.length ? { held } : {}), ...crds };
}

/** The prune waves without the CRDs custom resources still use (`heldCrds`), but for those `allowed` names: they stay
 * in the waves and are answered as `prunedWithCrs`, so the caller can record the loss. */
async function guardCrds(
  cluster: KubeClient,
  waves: SyncedResource[][],
  allowed: readonly string[],
): Promise<{ waves: SyncedResource[][]; heldCrds: HeldCrd[]; prunedWithCrs: HeldCrd[] }> {
  const heldCrds: HeldCrd[] = [];
  const prunedWithCrs: HeldCrd[] = [];
  for (const crd of waves.flat().filter((r) => r.kind === 'CustomResourceDefinition')) {
    const crs = await customResourcesOf(cluster, crd.name);
    if (crs.length) (allowed.includes(crd.name) ? prunedWithCrs : heldCrds).push({ crd, crs });
  }
  const kept = new Set(heldCrds.map((h) => syncedId(h.crd)));
  return {
    waves: waves.map((w) => w.filter((r) => !kept.has(syncedId(r)))).filter((w) => w.length),
    heldCrds,
    prunedWithCrs,
  };
}

/** Removes everything `synced` names (custom resources first, then CRDs, namespaces and the operator); answers what is
 * still there — call again until it is empty. */
export function removeObjects(
  cluster: KubeClient,
  synced: SyncedResource[],
  shared = false,
  ownership?: Ownership,
): Promise<SyncedResource[]> {
  return prune(cluster, pruneWaves(synced, [], shared), ownership);
}
