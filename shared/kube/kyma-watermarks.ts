import { currentFreshness, kindKey, revisionOf } from './freshness.ts';

interface KymaRef {
  namespace?: string | undefined;
  name: string;
}

/** The newest resourceVersion of each kind this instance wrote for a Kyma (its status, its Manifests): a later call
 * about the same Kyma reads those kinds from the watch cache only once the cache has caught up with them (ADR 62) —
 * read-your-writes across calls, so a call never works from a state older than the one this instance wrote last.
 * Bounded: the Kymas written least recently are forgotten first. */
export class KymaWatermarks {
  private readonly marks = new Map<string, bigint>();
  private readonly capacity: number;

  constructor(capacity = 50_000) {
    this.capacity = capacity;
  }

  /** Records a write of `kind` (`apiVersion`, `kind`) for the Kyma, as the API server answered it. */
  note(apiVersion: string, kind: string, kyma: KymaRef, resourceVersion: string | undefined): void {
    const revision = revisionOf(resourceVersion);
    if (revision === undefined) return;
    const key = keyOf(apiVersion, kind, kyma);
    const known = this.marks.get(key) ?? 0n;
    this.marks.delete(key);
    this.marks.set(key, revision > known ? revision : known);
    if (this.marks.size > this.capacity) this.marks.delete(this.marks.keys().next().value ?? '');
  }

  /** The current call's cached reads of `kind` wait for this instance's last write of it for the Kyma. */
  require(apiVersion: string, kind: string, kyma: KymaRef): void {
    const revision = this.marks.get(keyOf(apiVersion, kind, kyma));
    if (revision !== undefined) currentFreshness()?.note(kindKey(apiVersion, kind), String(revision));
  }
}

const keyOf = (apiVersion: string, kind: string, kyma: KymaRef) =>
  `${kindKey(apiVersion, kind)} ${kyma.namespace ?? ''}/${kyma.name}`;
