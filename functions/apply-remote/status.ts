import { canonicalJson } from '../../shared/core/canonical.ts';
import type { Manifest, ManifestStatus, SyncedResource } from '../../shared/core/manifest.ts';
import { hasDefaultCr } from '../../shared/core/manifest-finalizers.ts';
import type { Condition, State } from '../../shared/core/objects.ts';

export const CONDITION = {
  resources: { type: 'Resources', reason: 'ResourcesAvailable' },
  installation: { type: 'Installation', reason: 'Ready' },
  moduleCr: { type: 'ModuleCR', reason: 'ModuleCRCreated' },
} as const;

export interface StatusWish {
  state: State;
  operation: string;
  synced?: SyncedResource[];
  /** Condition type → True/False, with the message it carries. */
  conditions?: Record<string, { ok: boolean; message: string }>;
}

/** PURE. The next Manifest status: conditions initialised, lastTransitionTime kept when unchanged. */
export function nextStatus(manifest: Manifest, wish: StatusWish, now: string): ManifestStatus {
  const current = manifest.status ?? {};
  const types = [CONDITION.resources, CONDITION.installation, ...(hasDefaultCr(manifest) ? [CONDITION.moduleCr] : [])];
  const conditions = types.map(({ type, reason }): Condition => {
    const old = current.conditions?.find((c) => c.type === type);
    const want = wish.conditions?.[type];
    const status = want ? (want.ok ? 'True' : 'False') : (old?.status ?? 'False');
    const message = want?.message ?? old?.message ?? `${type} not yet handled`;
    const changed = !old || old.status !== status;
    return {
      type,
      status,
      reason,
      message,
      observedGeneration: manifest.metadata.generation ?? 0,
      lastTransitionTime: changed ? now : (old.lastTransitionTime ?? now),
    };
  });
  return {
    state: wish.state,
    conditions,
    synced: wish.synced ?? current.synced ?? [],
    lastOperation: {
      operation: wish.operation,
      lastUpdateTime: sameOperation(current, wish) ? (current.lastOperation?.lastUpdateTime ?? now) : now,
    },
  };
}

const sameOperation = (current: ManifestStatus, wish: StatusWish) =>
  current.state === wish.state && current.lastOperation?.operation === wish.operation;

/** Whether writing `next` would change anything but timestamps. */
export function statusChanged(manifest: Manifest, next: ManifestStatus): boolean {
  const strip = (s: ManifestStatus | undefined) => ({
    ...s,
    lastTrace: undefined,
    // The lane is recorded by the write, not decided (ADR 72): with it here, each user-lane call wrote again and two
    // instances answered each other's writes for ever (test/faults/conflicts.test.ts).
    lastLane: undefined,
    lastOperation: { operation: s?.lastOperation?.operation },
    conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: undefined })),
  });
  return canonicalJson(strip(manifest.status)) !== canonicalJson(strip(next));
}
