import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { type KubeClient } from '../../shared/kube/client.ts';
import { refOf } from '../../shared/kube/types.ts';
import type { ApplyContext } from './context.ts';
import { deleteSynced, pruneWaves } from '../../shared/render/prune.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { hasDefaultCr } from '../../shared/core/manifest-finalizers.ts';

/** After applying, the Manifest is read again; when another instance deleted it meanwhile (its uninstall removes only
 * what the status recorded), everything this call applied and the default CR are deleted again. True then. */
export async function withdrawIfDeleted(
  ctx: ApplyContext,
  manifest: Manifest,
  runtime: KubeClient,
  target: SyncedResource[],
): Promise<boolean> {
  const { name, namespace } = manifest.metadata;
  const current = await ctx.kcp.get<Manifest>({ apiVersion: API_VERSION, kind: 'Manifest', namespace, name });
  if (current && !current.metadata.deletionTimestamp) return false;
  const cr = hasDefaultCr(manifest) ? (manifest.spec?.resource as unknown as RuntimeObject) : undefined;
  if (cr) await runtime.delete(refOf(cr)).catch(() => undefined);
  await Promise.all(
    pruneWaves(target, [], ctx.scope.shared)
      .flat()
      .map((r) => deleteSynced(runtime, r).catch(() => true)),
  );
  ctx.log.warn({ resources: target.length }, 'Manifest deleted while its resources were applied: removed them again');
  return true;
}
