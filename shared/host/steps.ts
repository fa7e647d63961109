// Which of upstream's steps a call is in (ADR 40): a call marks the step it starts, and a retry it ends in is counted
// under that step's name in `lifecycle_mgr_requeue_reason_total`, as upstream's controllers count theirs.
import type { RequeueReason } from '../core/upstream-names.ts';
import { callContext, withinCall } from './call-context.ts';

/** Runs a call with a step record and a write count of its own; answers the work's result and the step it was in
 * last. */
export async function withSteps<T>(
  work: () => Promise<T>,
): Promise<{ result: T; step?: RequeueReason } | { thrown: unknown; step?: RequeueReason }> {
  const record: { step?: RequeueReason } = {};
  try {
    const result = await withinCall({ steps: record, writes: { count: 0 } }, work);
    return { result, ...(record.step ? { step: record.step } : {}) };
  } catch (thrown) {
    return { thrown, ...(record.step ? { step: record.step } : {}) };
  }
}

/** The call goes into `step` (outside a call: nothing happens). */
export function markStep(step: RequeueReason): void {
  const record = callContext().steps;
  if (record) record.step = step;
}

/** The step the current call is in, if it marked one. */
export const currentStep = (): RequeueReason | undefined => callContext().steps?.step;

/** Each function's step when it marked none: the upstream step its work is part of. */
export const DEFAULT_STEP: Record<string, RequeueReason> = {
  'resolve-template': 'manifest_reconciliation',
  'render-manifest': 'manifest_reconciliation',
  'apply-remote': 'manifest_sync_resources',
  'aggregate-status': 'processing_kyma_state',
  purge: 'kyma_deletion',
  resync: 'kyma_retrieval',
};
