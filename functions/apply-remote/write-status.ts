import type { Manifest } from '../../shared/domain/manifest.ts';
import { API_VERSION, FIELD_MANAGER } from '../../shared/domain/vocabulary.ts';
import type { ApplyContext } from './context.ts';
import { nextStatus, statusChanged, type StatusWish } from './status.ts';

/** Writes the Manifest status (SSA, field manager of the applier) only when more than timestamps change. */
export async function writeStatus(ctx: ApplyContext, manifest: Manifest, wish: StatusWish): Promise<void> {
  const status = nextStatus(manifest, wish, new Date().toISOString());
  if (!statusChanged(manifest, status)) return;
  const { name, namespace } = manifest.metadata;
  await ctx.kcp.apply({ apiVersion: API_VERSION, kind: 'Manifest', metadata: { name, namespace }, status }, FIELD_MANAGER.applier, 'status');
  ctx.log.info({ state: wish.state }, wish.operation);
}
