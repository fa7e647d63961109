// Apply only what is not already so (docs/adr/0014): the desired object carries a hash of itself; when the live
// object has that hash and every desired field (shared/core/current.ts), the apply is skipped — a read instead of a
// write, so replayed events, resyncs and status-only changes write nothing.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical.ts';
import { isCurrent, type Annotated } from '../core/current.ts';
import { ANNOTATION } from '../core/vocabulary.ts';
import { type KubeClient } from './client.ts';
import { refOf } from './types.ts';
import type { Freshness, KubeObject } from './types.ts';

type Hashed<T> = T & { metadata: { annotations: Record<string, string> } };

/** The desired object with its applied-hash annotation (a hash of everything else in it). */
export function withAppliedHash<T extends Annotated>(desired: T): Hashed<T> {
  const annotations = Object.fromEntries(
    Object.entries(desired.metadata?.annotations ?? {}).filter(([k]) => k !== ANNOTATION.appliedHash),
  );
  const bare = { ...desired, metadata: { ...desired.metadata, annotations } };
  const hash = createHash('sha256').update(canonicalJson(bare)).digest('hex').slice(0, 32);
  return {
    ...desired,
    metadata: { ...desired.metadata, annotations: { ...annotations, [ANNOTATION.appliedHash]: hash } },
  } as Hashed<T>;
}

/** Server-side applies `object` unless the live object already is it; returns the object as stored either way. A
 * failed read falls through to the apply, which reports the real problem. `known` is the live object when the
 * caller has just listed it (`null`: not there), which saves the read; else it is read as `freshness` says. */
export async function applyUnlessCurrent<T extends KubeObject>(
  client: KubeClient,
  object: T,
  fieldManager: string,
  known?: T | null,
  freshness: Freshness = 'live',
): Promise<T> {
  const desired = withAppliedHash(object as T & Annotated);
  const live =
    known === undefined ? await client.get<T>(refOf(desired), freshness).catch(() => undefined) : (known ?? undefined);
  if (isCurrent(live as Annotated | undefined, desired, fieldManager)) return live as T;
  return client.apply<T>(desired, fieldManager);
}
