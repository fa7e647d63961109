import { currentFreshness, kindKey, revisionOf } from './freshness.ts';

/** What a call is about: a Kyma (its status, its Manifests) or a Manifest (its status). */
interface About {
  namespace?: string | undefined;
  name: string;
}

/** The newest resourceVersion of each kind this instance wrote for what a call is about: a later call about the same
 * reads that kind from the watch cache once the cache has it (ADR 62): read-your-writes across calls. Bounded: what
 * was written least recently is forgotten first. */
export class OwnWatermarks {
  private readonly marks = new Map<string, bigint>();
  private readonly capacity: number;

  constructor(capacity = 50_000) {
    this.capacity = capacity;
  }

  /** Records a write of `kind` for what a call is about, at the version the API server answered. */
  note(apiVersion: string, kind: string, about: About, resourceVersion: string | undefined): void {
    const revision = revisionOf(resourceVersion);
    if (revision === undefined) return;
    const key = keyOf(apiVersion, kind, about);
    const known = this.marks.get(key) ?? 0n;
    this.marks.delete(key);
    this.marks.set(key, revision > known ? revision : known);
    if (this.marks.size > this.capacity) this.marks.delete(this.marks.keys().next().value ?? '');
  }

  /** A listener for `OwnWrites` that notes each write it remembers as a write of `kind` about the written object. */
  noting(
    apiVersion: string,
    kind: string,
  ): (written: { metadata: About & { resourceVersion?: string | undefined } }) => void {
    return (written) => this.note(apiVersion, kind, written.metadata, written.metadata.resourceVersion);
  }

  /** The current call's cached reads of `kind` wait for this instance's last write of it for the same. */
  require(apiVersion: string, kind: string, about: About): void {
    const revision = this.marks.get(keyOf(apiVersion, kind, about));
    if (revision !== undefined) currentFreshness()?.note(kindKey(apiVersion, kind), String(revision));
  }
}

const keyOf = (apiVersion: string, kind: string, about: About) =>
  `${kindKey(apiVersion, kind)} ${about.namespace ?? ''}/${about.name}`;
