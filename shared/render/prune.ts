import type { SyncedResource } from '../core/manifest.ts';
import { syncedId } from '../core/manifest.ts';
import type { KubeClient } from '../kube/client.ts';
import { refOfSynced } from './render.ts';
import type { Ownership } from './ownership.ts';

/** Kinds removed in the second wave, after everything that depends on them (upstream's "operator-related"). */
const OPERATOR_KINDS = new Set([
  'CustomResourceDefinition',
  'Namespace',
  'ServiceAccount',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'Service',
  'Deployment',
]);

/** PURE. What was synced before but is no longer wanted, in two deletion waves; Namespace kyma-system is never pruned,
 * nor, on a shared runtime, anything cluster-scoped (other Kymas there use it too). */
export function pruneWaves(synced: SyncedResource[], target: SyncedResource[], shared = false): SyncedResource[][] {
  const wanted = new Set(target.map(syncedId));
  const stale = synced.filter(
    (r) =>
      !wanted.has(syncedId(r)) && !(r.kind === 'Namespace' && r.name === 'kyma-system') && !(shared && !r.namespace),
  );
  return [stale.filter((r) => !OPERATOR_KINDS.has(r.kind)), stale.filter((r) => OPERATOR_KINDS.has(r.kind))].filter(
    (w) => w.length,
  );
}

/** Deletes wave after wave (background propagation), the next only once the previous is gone; returns the objects that
 * still exist. Kinds the runtime no longer serves count as gone, and so do objects another installed module ships
 * (`ownership`, ADR 33), which stay. */
export async function prune(
  runtime: KubeClient,
  waves: SyncedResource[][],
  ownership?: Ownership,
): Promise<SyncedResource[]> {
  for (const wave of waves) {
    const remaining = (
      await Promise.all(
        wave.map(async (r) => (!(await ownership?.shippedElsewhere(r)) && (await deleteSynced(runtime, r)) ? [r] : [])),
      )
    ).flat();
    if (remaining.length) return remaining;
  }
  return [];
}

/** Deletes one synced resource; true while it still exists (delete issued or terminating), false once gone. */
export async function deleteSynced(runtime: KubeClient, r: SyncedResource): Promise<boolean> {
  const ref = refOfSynced(r);
  try {
    return await runtime.delete(ref);
  } catch (error) {
    if ((error as { status?: number }).status === 404) return false;
    throw error;
  }
}
