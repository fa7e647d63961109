import { APISERVER_UPDATE, versionIn, versionsIn, type EventAttributes } from '../host/events.ts';

export interface Written {
  metadata: {
    name: string;
    namespace?: string | undefined;
    uid?: string | undefined;
    resourceVersion?: string | undefined;
  };
}

/** Own versions kept per object: a call writes at most a few times (finalizers, then status). */
const PER_OBJECT = 4;

/** The resourceVersions this instance's own guarded writes produced (ADR 25): the update event about exactly such a
 * version (the echo of our write) carries no work. Bounded: the least recently written objects are forgotten first
 * (their echoes are then simply handled again). */
export class OwnWrites {
  private readonly versions = new Map<string, string[]>();
  private readonly capacity: number;
  private readonly onRemember: ((written: Written) => void) | undefined;

  /** `onRemember`: also told of every version remembered (e.g. OwnWatermarks, ADR 62). */
  constructor(capacity = 100_000, onRemember?: (written: Written) => void) {
    this.capacity = capacity;
    this.onRemember = onRemember;
  }

  /** Records the object as a guarded write returned it. */
  remember(written: Written): void {
    const version = written.metadata.resourceVersion;
    if (!version) return;
    this.onRemember?.(written);
    const key = keyOf(written);
    const known = this.versions.get(key) ?? [];
    this.versions.delete(key);
    this.versions.set(key, [...known.slice(1 - PER_OBJECT), version]);
    if (this.versions.size > this.capacity) this.versions.delete(this.versions.keys().next().value ?? '');
  }

  /** True when the event is the API server's update event about a version one of our guarded writes produced — every
   * version it stands for when the local broker coalesced several into it (ADR 83), or only its newest (`newest`: a
   * function whose calls take the same decision from the object as read, whatever the event's kind). */
  isEcho(event: EventAttributes, object: Written, covering: 'all' | 'newest' = 'all'): boolean {
    if (event.type !== APISERVER_UPDATE) return false;
    const own = this.versions.get(keyOf(object)) ?? [];
    const newest = versionIn(event);
    const versions = covering === 'all' ? versionsIn(event) : newest === undefined ? [] : [newest];
    return versions.length > 0 && versions.every((version) => own.includes(version));
  }
}

const keyOf = (o: Written) => `${o.metadata.namespace ?? ''}/${o.metadata.name}/${o.metadata.uid ?? ''}`;
