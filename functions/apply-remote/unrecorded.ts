import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { holderOf, sameObject } from '../../shared/render/ownership.ts';
import { refOfSynced, syncedOf, type RuntimeObject } from '../../shared/render/render.ts';
import { renderTarget } from '../../shared/render/target.ts';
import type { ApplyContext } from './context.ts';
import { moduleYaml } from './sync.ts';

/** Objects the Manifest's module renders that its status does not record, but that are on the runtime with this
 * Manifest as their holder: an install applied them and ended before its status write (ADR 81). The uninstall removes
 * them too. None when the module cannot be rendered (a layer gone from the registry): the status is all there is. */
export async function unrecorded(
  ctx: ApplyContext,
  manifest: Manifest,
  runtime: KubeClient,
): Promise<SyncedResource[]> {
  const rendered = await renderedObjects(ctx, manifest, runtime).catch((error: unknown) => {
    ctx.log.warn({ err: error }, 'module not rendered for its removal: removing what its status records');
    return [];
  });
  const recorded = manifest.status?.synced ?? [];
  const holder = `${manifest.metadata.namespace ?? ''}/${manifest.metadata.name}`;
  const candidates = rendered.map(syncedOf).filter((o) => !recorded.some((r) => sameObject(r, o)));
  const live = await Promise.all(
    candidates.map((r) => runtime.get<RuntimeObject>(refOfSynced(r)).catch(() => undefined)),
  );
  return candidates.filter((_, i) => live[i] && holderOf(live[i]) === holder);
}

async function renderedObjects(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<RuntimeObject[]> {
  const layer = await moduleYaml(ctx, manifest);
  if ('error' in layer) throw new Error(layer.error);
  const objects = await renderTarget(runtime, manifest, layer.yaml, ctx.pullSecret, ctx.scope);
  if ('error' in objects) throw new Error(objects.error);
  return objects;
}
