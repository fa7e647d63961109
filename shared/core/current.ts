// Whether an object on a cluster already is what the lifecycle manager would apply (docs/adr/0014): the applied-hash
// annotation says the same desired object was applied before, and every field of it still has that value live (no
// one changed it since). Then the apply is skipped — no write, on replays and resyncs alike. Pure.
import { ANNOTATION } from './vocabulary.ts';

export interface Annotated { metadata?: { name?: string; annotations?: Record<string, string>; deletionTimestamp?: string } }

/** True when `live` carries the hash of `desired` (shared/kube/apply-current.ts), is not being deleted, and covers it. */
export function isCurrent(live: Annotated | undefined, desired: Annotated): boolean {
  if (!live || live.metadata?.deletionTimestamp) return false;
  const hash = desired.metadata?.annotations?.[ANNOTATION.appliedHash];
  return hash !== undefined && live.metadata?.annotations?.[ANNOTATION.appliedHash] === hash && covers(live, desired);
}

/** Every field of `desired` has the same value in `live` (extra live fields, e.g. defaults and status, are fine;
 * lists must have the same length, element by element). */
export function covers(live: unknown, desired: unknown): boolean {
  if (Array.isArray(desired)) return Array.isArray(live) && live.length === desired.length && desired.every((d, i) => covers(live[i], d));
  if (desired !== null && typeof desired === 'object') {
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    return Object.entries(desired).every(([k, v]) => v === undefined || covers((live as Record<string, unknown>)[k], v));
  }
  return live === desired;
}
