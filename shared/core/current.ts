// Whether a live object already is what we would apply, so its apply is skipped (ADR 14): the applied-hash annotation
// matches and every desired field still has that value; an object upstream applied under our field manager with every
// desired field counts as applied too (ADR 40). Pure.
import { ANNOTATION } from './vocabulary.ts';

export interface Annotated {
  metadata?: {
    name?: string;
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
    managedFields?: { manager?: string; operation?: string }[];
  };
}

/** True when `live` carries the hash of `desired` (shared/kube/apply-current.ts), is not being deleted, and covers it;
 * or, given the `fieldManager` that would apply it, carries no hash, was applied by that manager and covers it. */
export function isCurrent(live: Annotated | undefined, desired: Annotated, fieldManager?: string): boolean {
  if (!live || live.metadata?.deletionTimestamp) return false;
  const hash = desired.metadata?.annotations?.[ANNOTATION.appliedHash];
  const liveHash = live.metadata?.annotations?.[ANNOTATION.appliedHash];
  if (hash !== undefined && liveHash === hash) return covers(live, desired);
  return (
    liveHash === undefined &&
    fieldManager !== undefined &&
    appliedBy(live, fieldManager) &&
    covers(live, withoutHash(desired))
  );
}

/** Whether `fieldManager` server-side applied fields of the object (not only its status). */
export const appliedBy = (live: Annotated, fieldManager: string): boolean =>
  (live.metadata?.managedFields ?? []).some((f) => f.manager === fieldManager && f.operation === 'Apply');

function withoutHash(desired: Annotated): Annotated {
  const { annotations = {}, ...metadata } = desired.metadata ?? {};
  const rest = Object.fromEntries(Object.entries(annotations).filter(([k]) => k !== ANNOTATION.appliedHash));
  return { ...desired, metadata: { ...metadata, ...(Object.keys(rest).length ? { annotations: rest } : {}) } };
}

/** Every field of `desired` has the same value in `live` (extra live fields, e.g. defaults and status, are fine;
 * lists must have the same length, element by element). */
export function covers(live: unknown, desired: unknown): boolean {
  if (Array.isArray(desired))
    return Array.isArray(live) && live.length === desired.length && desired.every((d, i) => covers(live[i], d));
  if (desired !== null && typeof desired === 'object') {
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    return Object.entries(desired).every(
      ([k, v]) => v === undefined || covers((live as Record<string, unknown>)[k], v),
    );
  }
  return live === desired;
}
