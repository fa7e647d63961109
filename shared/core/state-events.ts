// PURE. What the functions tell operators as Kubernetes Events (issue 9): a state change of a Kyma or Manifest, one
// event per step of a Kyma's deletion. Messages come from statuses, which never carry secrets.
import { ANNOTATION, LABEL } from './vocabulary.ts';

export interface EventWish {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** "Processing → Ready: <operation>" when the state changed; Warning when the new state is Error or Warning. */
export function stateChangeEvent(
  before: string | undefined,
  after: string | undefined,
  operation: string | undefined,
): EventWish | undefined {
  if (!after || before === after) return undefined;
  return {
    type: after === 'Error' || after === 'Warning' ? 'Warning' : 'Normal',
    reason: 'StateChanged',
    message: `${before ?? 'new'} → ${after}${operation ? `: ${operation}` : ''}`,
  };
}

const TROUBLE = ['Error', 'Warning'];

/** A Manifest's state change worth an Event (ADR 26): into or out of Error or Warning; a module's ordinary progress is
 * told by its Kyma's StateChanged event and status. */
export function manifestStateEvent(
  before: string | undefined,
  after: string | undefined,
  operation: string | undefined,
): EventWish | undefined {
  if (!TROUBLE.includes(after ?? '') && !TROUBLE.includes(before ?? '')) return undefined;
  return stateChangeEvent(before, after, operation);
}

/** Upstream's reasons for the deletion steps (its deletion use cases), so dashboards and alerts built on them keep
 * working; the catalog copies have no upstream counterpart and keep ours. */
const CRD_REASON: Record<string, string> = {
  'moduletemplates.operator.kyma-project.io': 'DeleteSkrModuleTemplateCrd',
  'modulereleasemetas.operator.kyma-project.io': 'DeleteSkrModuleReleaseMetaCrd',
  'kymas.operator.kyma-project.io': 'DeleteSkrKymaCrd',
};

/** The event of a deletion step done, with upstream's reason for it. */
export function deletionStepEvent(step: {
  step: string;
  names?: string[];
  copies?: unknown[];
  name?: string;
  message?: string;
}): EventWish {
  switch (step.step) {
    case 'SetKymaStateDeleting':
      return { type: 'Normal', reason: 'SetKcpKymaStateDeleting', message: 'Kyma deletion started' };
    case 'SetRuntimeKymaStateDeleting':
      return { type: 'Normal', reason: 'SetSkrKymaStateDeleting', message: 'the runtime Kyma shows the deletion' };
    case 'DeleteManifests':
      return { type: 'Normal', reason: step.step, message: `deleting Manifests ${(step.names ?? []).join(', ')}` };
    case 'DeleteCatalogCopies':
      return {
        type: 'Normal',
        reason: step.step,
        message: `deleted ${step.copies?.length ?? 0} module catalog copies on the runtime`,
      };
    case 'DeleteRuntimeCrd':
      return {
        type: 'Normal',
        reason: CRD_REASON[step.name ?? ''] ?? 'DeleteSkrCrd',
        message: `deleting CRD ${step.name ?? ''} on the runtime`,
      };
    case 'DeleteRemoteKyma':
      return { type: 'Normal', reason: 'DeleteSkrKyma', message: 'deleting the runtime Kyma' };
    case 'WaitForManifests':
      return {
        type: 'Warning',
        reason: 'EnsureManifestDeletion',
        message: step.message ?? 'waiting for modules to be deleted',
      };
    case 'DropKymaFinalizer':
      return { type: 'Normal', reason: step.step, message: 'deletion finished: finalizer removed' };
    default:
      return { type: 'Normal', reason: step.step, message: step.step };
  }
}

const GC_FINALIZERS = new Set(['foregroundDeletion', 'orphan']);

/** A Kyma being deleted with nothing of the lifecycle manager's left to do (upstream's KymaDeletionStuck), naming the
 * finalizers that hold it; undefined when none do (it is about to go). */
export function deletionStuckEvent(finalizers: readonly string[]): EventWish | undefined {
  // Kubernetes' own garbage-collection finalizers go by themselves once the dependents are gone: nothing is stuck.
  finalizers = finalizers.filter((f) => !GC_FINALIZERS.has(f));
  if (!finalizers.length) return undefined;
  return {
    type: 'Warning',
    reason: 'KymaDeletionStuck',
    message: `the Kyma's deletion waits for finalizers the lifecycle manager does not own: [${finalizers.join(', ')}]`,
  };
}

/** Upstream's MetricsError: a Kyma whose metrics lack the shoot (annotation skr-domain) or the instance id (label
 * kyma-project.io/instance-id); undefined when it has both. */
export function metricsErrorEvent(kyma: {
  metadata: { annotations?: Record<string, string>; labels?: Record<string, string> };
}): EventWish | undefined {
  const missing = [
    ...(kyma.metadata.annotations?.[ANNOTATION.skrDomain] ? [] : [`annotation ${ANNOTATION.skrDomain}`]),
    ...(kyma.metadata.labels?.[LABEL.instanceId] ? [] : [`label ${LABEL.instanceId}`]),
  ];
  if (!missing.length) return undefined;
  return {
    type: 'Warning',
    reason: 'MetricsError',
    message: `the Kyma's metrics have no shoot or instance_id: it lacks the ${missing.join(' and the ')}`,
  };
}

/** Upstream's Warning about a failed KCP write (`PatchStatus`, `UpdateObject`, `PatchObject`, `UpdateSpecError`,
 * `MetadataSynchronization`, `StatusSynchronization`), its message cut to the last 100 characters as upstream's. */
export function failedWriteEvent(
  reason:
    | 'PatchStatus'
    | 'UpdateObject'
    | 'PatchObject'
    | 'UpdateSpecError'
    | 'MetadataSynchronization'
    | 'StatusSynchronization',
  error: unknown,
): EventWish {
  const text = error instanceof Error ? error.message : String(error);
  return { type: 'Warning', reason, message: text.length > 100 ? text.slice(-100) : text };
}

/** Whether a failed write is worth upstream's Warning: not a conflict (409, retried at once) nor the object gone (404). */
export const isWorthAWarning = (error: unknown): boolean =>
  ![404, 409].includes((error as { status?: number }).status ?? 0);

/** A CRD pruned with the custom resources that still used it, as the Kyma's module allowed (issue 34). */
export function crdPrunedEvent(lost: { crd: { name: string }; crs: string[] }): EventWish {
  const named = lost.crs.slice(0, 10).join(', ') + (lost.crs.length > 10 ? ` and ${lost.crs.length - 10} more` : '');
  return {
    type: 'Warning',
    reason: 'CrdPrunedWithCustomResources',
    message: `CRD ${lost.crd.name} pruned with ${lost.crs.length} custom resources, as spec.modules[].allowCrdPrune allows: ${named}`,
  };
}
