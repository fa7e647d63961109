import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import { failedWriteEvent, isWorthAWarning, manifestStateEvent } from '../../shared/core/state-events.ts';
import { markStep } from '../../shared/host/steps.ts';
import { involvedOf } from '../../shared/kube/events.ts';
import type { ApplyContext } from './context.ts';
import { nextStatus, statusChanged, type StatusWish } from './status.ts';
import { currentTraceparent } from '../../shared/host/trace.ts';
import { laneToRecord } from '../../shared/host/lane.ts';
import type { WatchedObject } from '../../shared/kube/apiserver-events.ts';

/** Writes the Manifest status (SSA, the applier's field manager; failed: upstream's PatchStatus Warning, ADR 40) only
 * when more than timestamps change; with `precondition`, only at the resourceVersion read (409 otherwise), and the
 * version it produces is remembered so its update event is skipped (ADR 25). */
export async function writeStatus(
  ctx: ApplyContext,
  manifest: Manifest,
  wish: StatusWish,
  options: { precondition?: boolean } = {},
): Promise<void> {
  await storeStatus(ctx, manifest, wish, options);
}

/** writeStatus, answering the resourceVersion its write produced (undefined: nothing written). */
export async function storeStatus(
  ctx: ApplyContext,
  manifest: Manifest,
  wish: StatusWish,
  options: { precondition?: boolean } = {},
): Promise<string | undefined> {
  const status = nextStatus(manifest, wish, new Date().toISOString());
  if (!statusChanged(manifest, status)) return undefined;
  const { name, namespace, resourceVersion } = manifest.metadata;
  const metadata = { name, namespace, ...(options.precondition && resourceVersion ? { resourceVersion } : {}) };
  markStep('manifest_sync_state');
  // The user lane is recorded for the calls this write causes (ADR 72); a write without it removes it (SSA).
  const lastLane = laneToRecord();
  const lane = lastLane ? { lastLane } : {};
  const stored = await ctx.kcp
    .apply(
      {
        apiVersion: API_VERSION,
        kind: 'Manifest',
        metadata,
        status: { ...status, lastTrace: currentTraceparent(), ...lane },
      },
      FIELD_MANAGER.applier,
      'status',
    )
    .catch(async (error: unknown) => {
      if (isWorthAWarning(error)) await ctx.events.record(involvedOf(manifest), failedWriteEvent('PatchStatus', error));
      throw error;
    });
  if (metadata.resourceVersion) ctx.written.remember(stored);
  await ctx.announce('update', stored as WatchedObject);
  ctx.log.info({ state: wish.state }, wish.operation);
  await ctx.events.record(involvedOf(manifest), manifestStateEvent(manifest.status?.state, wish.state, wish.operation));
  return stored.metadata.resourceVersion;
}
