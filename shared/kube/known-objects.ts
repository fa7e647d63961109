// The objects a watch has announced, so that a re-list, or a kind no longer served, tells which of them went while no
// WATCH was open to say so (an informer's replace; ADR 75). Pure. Identities only: a delete reported from here carries
// apiVersion, kind, name, namespace, uid and resourceVersion, not the object's last content.
import type { ResourceChange, WatchedObject } from './apiserver-events.ts';

export interface KnownObject extends WatchedObject {
  readonly metadata?: {
    readonly name?: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
  };
}

const keyOf = (object: KnownObject) => `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;

export class KnownObjects {
  private readonly objects = new Map<string, KnownObject>();
  private readonly apiVersion: string;
  private readonly kind: string;

  constructor(apiVersion: string, kind: string) {
    this.apiVersion = apiVersion;
    this.kind = kind;
  }

  /** Nothing is announced (or all of it went). */
  get empty(): boolean {
    return this.objects.size === 0;
  }

  /** An announced change: added and updated objects are known, deleted ones forgotten. */
  note(change: ResourceChange, object: KnownObject): void {
    if (change === 'delete') this.objects.delete(keyOf(object));
    else this.objects.set(keyOf(object), this.identity(object));
  }

  /** The known objects a complete list (`[]` for a kind no longer served) does not hold; they are forgotten. */
  vanished(listed: readonly KnownObject[]): KnownObject[] {
    const present = new Set(listed.map(keyOf));
    const gone = [...this.objects].filter(([key]) => !present.has(key));
    for (const [key] of gone) this.objects.delete(key);
    return gone.map(([, object]) => object);
  }

  private identity(object: KnownObject): KnownObject {
    const { name, namespace, uid, resourceVersion } = object.metadata ?? {};
    const metadata = Object.entries({ name, namespace, uid, resourceVersion }).filter(([, v]) => v !== undefined);
    return { apiVersion: this.apiVersion, kind: this.kind, metadata: Object.fromEntries(metadata) };
  }
}
