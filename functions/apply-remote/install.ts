import { syncedText, type Manifest, type SyncedResource } from '../../shared/core/manifest.ts';
import { ANNOTATION, API_VERSION } from '../../shared/core/vocabulary.ts';
import { failedWriteEvent, isWorthAWarning } from '../../shared/core/state-events.ts';
import { involvedOf } from '../../shared/kube/events.ts';
import { markStep } from '../../shared/host/steps.ts';
import { hasWritten } from '../../shared/host/call-context.ts';
import { heldCrdMessage } from '../../shared/render/crd-holders.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isConflict, isNotFound } from '../../shared/kube/errors.ts';
import { ConflictError, NotYetReadyError } from '../../shared/host/errors.ts';
import { withdrawIfDeleted } from './withdraw.ts';
import { ensureDefaultCr } from './default-cr.ts';
import { installFinalizers } from '../../shared/core/manifest-finalizers.ts';
import { namespaceOfModules, syncModule } from './sync.ts';
import { moduleDriftChecks } from '../../shared/host/metrics.ts';
import { injectsKcpData } from '../../shared/render/kcp-data.ts';
import { missingFinalizers, setFinalizers, withFinalizers } from './finalizers.ts';
import type { ApplyContext } from './context.ts';
import { moduleReadiness } from '../../shared/render/readiness.ts';
import { podsToJudge } from '../../shared/render/pods.ts';
import { CONDITION, nextStatus, statusChanged, type StatusWish } from './status.ts';
import { storeStatus, writeStatus } from './write-status.ts';
import type { Recalled } from './rollout.ts';

/** The install pipeline: finalizers (stored first), render → prune → apply → default CR → readiness → status; a module
 * still rolling out ends with NotYetReady (503, retried, ADR 24). The status write is guarded by the resourceVersion
 * read (ADR 11), and a Manifest deleted meanwhile gets what this call applied removed again (withdraw.ts). */
export async function install(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<void> {
  const wanted = installFinalizers(manifest);
  // render-manifest creates Manifests with their finalizers (ADR 26); one that misses some (older Manifests, a new
  // default CR) gets them stored before anything reaches the runtime, and the call goes on (its echo is skipped, ADR 25).
  if (missingFinalizers(manifest, wanted).length) {
    manifest = await setFinalizers(ctx.kcp, manifest, withFinalizers(manifest, wanted), ctx.events);
    ctx.written.remember(manifest);
  }
  // A drift check that finds the module as the last call that left it Ready did ends after its reads (ADR 92).
  if (ctx.listed) {
    const unchanged = await ctx.settled.unchanged(runtime, manifest, ctx.listed);
    moduleDriftChecks.inc({ found: unchanged ? 'unchanged' : 'checked' });
    if (unchanged) return namespaceOfModules(ctx, runtime);
  }
  // A retry while the module rolls out re-reads only its workload (rollout.ts); resync events sync in full.
  const recalled = ctx.force ? undefined : await ctx.rollouts.refreshed(runtime, manifest);
  const done = recalled ?? (await fullSync(ctx, manifest, runtime));
  if (!done) return;
  const applied = await ctx.rolloutWatch.settle(runtime, done.applied);
  const { target, crMessage, kept, held = [], heldCrds = [] } = done;
  const pods = await podsToJudge(runtime, applied);
  const readiness = moduleReadiness(applied, { pods });
  const installed = readiness.state === 'Ready';
  // Objects another module of the Kyma holds (ADR 33), or the same layer no longer renders (ADR 40): a module otherwise
  // Ready is Warning and says which.
  // A CRD the version dropped that custom resources still use is kept (issue 34): Warning naming them.
  const notes = [
    ...kept,
    ...(held.length ? [`${SAME_LAYER_DIFF}: ${held.map(syncedText).join(', ')}`] : []),
    ...heldCrds.map(heldCrdMessage),
  ];
  const wish: StatusWish = {
    state: installed && notes.length ? 'Warning' : readiness.state,
    synced: recordedOf(done),
    operation: installed
      ? `resources are ready${notes.map((n) => `; ${n}`).join('')}`
      : readiness.state === 'Error'
        ? readiness.reason
        : `waiting for resources to become ready: ${readiness.reason}`,
    conditions: {
      [CONDITION.resources.type]: {
        ok: true,
        message: `${target.length} resources rendered and applied${kept.length ? `, ${kept.length} left as another module holds them` : ''}`,
      },
      [CONDITION.installation.type]: { ok: installed, message: readiness.reason },
      ...(crMessage ? { [CONDITION.moduleCr.type]: { ok: true, message: crMessage } } : {}),
    },
  };
  // A Manifest deleted by another instance while this call applied it (withdraw.ts): the guarded status write fails
  // then (409/404) and withdraws. Only when the status does not change, so nothing is written, is it read again — and
  // only when this call wrote: one that found everything as desired (a drift check) put back nothing to take back.
  if (
    !recalled &&
    hasWritten() &&
    !statusChanged(manifest, nextStatus(manifest, wish, new Date().toISOString())) &&
    (await withdrawIfDeleted(ctx, manifest, runtime, target))
  )
    throw new ConflictError(`Manifest ${manifest.metadata.name} was deleted while it was applied`);
  const written = await writeGuarded(ctx, manifest, runtime, wish, target);
  // The layer counts as fully synced only once nothing it dropped is still waiting to be pruned (a kept CRD).
  const layerRecorded = installed && !heldCrds.length && (await recordSyncedLayer(ctx, manifest));
  // Found or made as desired, Ready, nothing to say: the next drift check stops if nothing moved since (ADR 92). Not
  // after the unguarded annotation patch, whose version may hold another writer's change.
  if (!recalled && installed && !notes.length && !pods && !layerRecorded && !rendersFromKcp(ctx, manifest))
    ctx.settled.remember(runtime, manifest, { version: written, synced: wish.synced ?? [] }, applied);
  else ctx.settled.forget(runtime, manifest);
  if (readiness.state !== 'Processing') return ctx.rollouts.forget(runtime, manifest);
  ctx.rollouts.remember(runtime, manifest, { ...done, applied });
  throw new NotYetReadyError(readiness.reason, 'manifest_sync_resources_enqueue_required');
}

/** A module whose objects carry data of the KCP's Secrets (kcp-data.ts): its inputs are more than the Manifest, so a
 * drift check renders it in full (ADR 92). */
const rendersFromKcp = (ctx: ApplyContext, manifest: Manifest) =>
  injectsKcpData(manifest, ctx.kcpSecrets.restrictedModules);

/** Upstream's message when a layer it synced before renders fewer objects (ADR 40). */
export const SAME_LAYER_DIFF =
  'resource syncTarget diff detected but in same oci layer, prevent sync resource to be deleted';

/** After a new layer is installed, `sync-oci-ref` names it (upstream's "last OCI ref fully synced"; ADR 40): its
 * objects may be pruned when the next layer drops them, never before. A Manifest without the annotation keeps none. */
async function recordSyncedLayer(ctx: ApplyContext, manifest: Manifest): Promise<boolean> {
  const ref = manifest.spec?.install?.source.ref;
  const recorded = manifest.metadata.annotations?.[ANNOTATION.syncOciRef];
  if (!ref || recorded === undefined || recorded === ref) return false;
  markStep('manifest_update_synced_oci_ref');
  const at = {
    apiVersion: API_VERSION,
    kind: 'Manifest',
    namespace: manifest.metadata.namespace,
    name: manifest.metadata.name,
  };
  ctx.written.remember(
    await ctx.kcp
      .mergePatch<Manifest>(at, { metadata: { annotations: { [ANNOTATION.syncOciRef]: ref } } })
      .catch(async (error: unknown) => {
        if (isWorthAWarning(error))
          await ctx.events.record(involvedOf(manifest), failedWriteEvent('UpdateObject', error));
        throw error;
      }),
  );
  return true;
}

/** PURE. What a Manifest's status records as synced after a sync: the target, and what it holds (ADR 40, issue 34). */
const recordedOf = (s: Pick<Recalled, 'target' | 'held' | 'heldCrds'>) => [
  ...s.target,
  ...(s.held ?? []),
  ...(s.heldCrds ?? []).map((h) => h.crd),
];

/** The status written at the resourceVersion read (ADR 11), answering the version written (none: unchanged); refused
 * (409/404) because another instance deleted the Manifest meanwhile, what this call applied (`target`) is withdrawn
 * (withdraw.ts) before the error is thrown. */
async function writeGuarded(
  ctx: ApplyContext,
  manifest: Manifest,
  runtime: KubeClient,
  wish: StatusWish,
  target: SyncedResource[],
): Promise<string | undefined> {
  return storeStatus(ctx, manifest, wish, { precondition: true }).catch(async (error: unknown) => {
    if (isConflict(error) || isNotFound(error)) await withdrawIfDeleted(ctx, manifest, runtime, target);
    throw error;
  });
}

/** The default CR waits for its CRD's deletion to end: the status says so and records what was applied — a removal
 * meanwhile then takes it away (ADR 81) —, and the call is retried. */
async function waitForCrd(
  ctx: ApplyContext,
  manifest: Manifest,
  runtime: KubeClient,
  synced: Pick<Recalled, 'target' | 'held' | 'heldCrds'>,
  waiting: string,
): Promise<never> {
  const wish: StatusWish = { state: 'Processing', operation: waiting, synced: recordedOf(synced) };
  await writeGuarded(ctx, manifest, runtime, wish, synced.target);
  throw new NotYetReadyError(waiting, 'manifest_sync_resources_enqueue_required');
}

/** Render, prune, apply, default CR; undefined when the module cannot be applied (its Error status is written). */
async function fullSync(ctx: ApplyContext, manifest: Manifest, runtime: KubeClient): Promise<Recalled | undefined> {
  const at = Date.now();
  const synced = await syncModule(ctx, manifest, runtime);
  if ('error' in synced) {
    const resources =
      synced.stage === 'resources'
        ? { conditions: { [CONDITION.resources.type]: { ok: false, message: synced.error } } }
        : {};
    await writeStatus(ctx, manifest, {
      state: 'Error',
      operation: synced.error,
      ...(synced.target ? { synced: synced.target } : {}),
      ...resources,
    });
    return undefined;
  }
  const { applied, target, kept, held, heldCrds } = synced;
  // The default CR may not be creatable yet (its CRD still being established): the call ends with NotYetReady, and
  // when the Manifest was deleted meanwhile, its retry finds nothing to do — so withdraw before giving up.
  const crMessage = await ensureDefaultCr(runtime, manifest).catch(async (error: unknown) => {
    await withdrawIfDeleted(ctx, manifest, runtime, target).catch(() => false);
    throw error;
  });
  if (typeof crMessage !== 'string') return waitForCrd(ctx, manifest, runtime, synced, crMessage.waiting);
  return { at, applied, target, crMessage, kept, ...(held ? { held } : {}), ...(heldCrds ? { heldCrds } : {}) };
}
