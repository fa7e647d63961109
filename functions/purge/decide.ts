import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { FINALIZER, LABEL } from '../../shared/core/vocabulary.ts';
import type { RequeueReason } from '../../shared/core/upstream-names.ts';

/** What purge saw of a deleting Kyma and its runtime. `runtime` is absent when the kubeconfig Secret is gone. */
export interface DeletionView {
  kyma: Kyma;
  manifests: Manifest[];
  runtime?: {
    crds: string[];
    remoteKyma: boolean;
    remoteKymaState?: string | undefined;
    copies?: { kind: string; name: string }[];
  };
  now: number;
  gracePeriodMs: number;
}

export type DeletionStep =
  | { step: 'SetKymaStateDeleting' }
  | { step: 'SetRuntimeKymaStateDeleting' }
  | { step: 'DeleteManifests'; names: string[] }
  | { step: 'DeleteCatalogCopies'; copies: { kind: string; name: string }[] }
  | { step: 'DeleteRuntimeCrd'; name: string }
  | { step: 'DeleteRemoteKyma' }
  | { step: 'PurgeModuleCrFinalizers' }
  | { step: 'WaitForManifests'; message: string }
  | { step: 'DropKymaFinalizer'; finalizers: string[] };

export const RUNTIME_CRDS = ['moduletemplates.operator.kyma-project.io', 'modulereleasemetas.operator.kyma-project.io'];
export const RUNTIME_KYMA_CRD = 'kymas.operator.kyma-project.io';
const OURS: string[] = [FINALIZER.kyma, FINALIZER.purge];

/** PURE. An API server's add or update of a Kyma (`changed`) whose object, the event's data, is not being deleted:
 * nothing to purge, and no read. Its deletion is an update of its own, and the broker delivers the newest data it has. */
export function nothingToPurge(kind: string, changed: boolean, data: unknown): boolean {
  const metadata = (data as { metadata?: { deletionTimestamp?: unknown } | null } | null | undefined)?.metadata;
  return kind === 'Kyma' && changed && typeof metadata === 'object' && metadata !== null && !metadata.deletionTimestamp;
}

/** PURE. The first applicable step of the Kyma deletion chain, in upstream order (ADR 8): Deleting → runtime Kyma
 * Deleting → Manifests deleted → catalog copies, catalog CRDs (only ours in them) → remote Kyma → Kyma CRD → (past
 * the grace period) stuck module CRs' finalizers → wait for the Manifests, naming what blocks → our finalizers. */
export function nextDeletionStep(view: DeletionView, purgeDone: boolean): DeletionStep | undefined {
  const { kyma, manifests, runtime } = view;
  if (kyma.status?.state !== 'Deleting') return { step: 'SetKymaStateDeleting' };
  if (runtime?.remoteKyma && runtime.remoteKymaState !== 'Deleting') return { step: 'SetRuntimeKymaStateDeleting' };
  const undeleted = manifests.filter((m) => !m.metadata.deletionTimestamp).map((m) => m.metadata.name);
  if (undeleted.length) return { step: 'DeleteManifests', names: undeleted };
  if (runtime?.copies?.length) return { step: 'DeleteCatalogCopies', copies: runtime.copies };
  const crd = RUNTIME_CRDS.find((name) => runtime?.crds.includes(name));
  if (crd) return { step: 'DeleteRuntimeCrd', name: crd };
  if (runtime?.remoteKyma) return { step: 'DeleteRemoteKyma' };
  if (runtime?.crds.includes(RUNTIME_KYMA_CRD)) return { step: 'DeleteRuntimeCrd', name: RUNTIME_KYMA_CRD };
  if (manifests.length) {
    if (!purgeDone && runtime && purgeDue(view)) return { step: 'PurgeModuleCrFinalizers' };
    return { step: 'WaitForManifests', message: blockingMessage(manifests) };
  }
  const finalizers = kyma.metadata.finalizers ?? [];
  if (finalizers.some((f) => OURS.includes(f)))
    return { step: 'DropKymaFinalizer', finalizers: finalizers.filter((f) => !OURS.includes(f)) };
  return undefined;
}

/** PURE. The Kyma as read live (`current`) is still the one `seen` (same uid), still being deleted and still held by
 * our finalizer: otherwise another call finished its deletion, and the runtime may be the next Kyma's (ADR 70). */
export function stillPurging(seen: Kyma, current: Kyma | undefined): boolean {
  return Boolean(
    current?.metadata.deletionTimestamp &&
    current.metadata.uid === seen.metadata.uid &&
    current.metadata.finalizers?.some((f) => OURS.includes(f)),
  );
}

export function purgeDue(view: DeletionView): boolean {
  const since = Date.parse(view.kyma.metadata.deletionTimestamp ?? '');
  return view.gracePeriodMs > 0 && Number.isFinite(since) && view.now - since >= view.gracePeriodMs;
}

/** "waiting for modules to be deleted: sample (waiting for module crs deletion: Sample ns/x [finalizers: f])". */
export function blockingMessage(manifests: Manifest[]): string {
  const parts = manifests.map((m) => {
    const module = m.metadata.labels?.[LABEL.moduleName] ?? m.metadata.name;
    const why = m.status?.lastOperation?.operation;
    return why ? `${module} (${why})` : module;
  });
  return `waiting for modules to be deleted: ${parts.join('; ')}`;
}

/** PURE. Upstream's requeue reason for a retry after `step` (ADR 40). */
export function requeueReasonOf(step: DeletionStep): RequeueReason {
  switch (step.step) {
    case 'SetKymaStateDeleting':
    case 'SetRuntimeKymaStateDeleting':
      return 'kyma_status_update_to_deleting';
    case 'DeleteCatalogCopies':
      return 'remote_module_catalog_deletion';
    case 'DeleteRuntimeCrd':
      return step.name === RUNTIME_KYMA_CRD ? 'remote_kyma_deletion' : 'remote_module_catalog_deletion';
    case 'DeleteRemoteKyma':
      return 'remote_kyma_deletion';
    case 'PurgeModuleCrFinalizers':
      return 'manifest_crs_cleanup';
    case 'DropKymaFinalizer':
      return 'labels_and_finalizers_update';
    default:
      return 'kyma_deletion';
  }
}
