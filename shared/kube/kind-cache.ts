import { setTimeout as delay } from 'node:timers/promises';
import { revisionOf } from './freshness.ts';
import type { SelectedObject } from './selectors.ts';
import type { KubeObject, ListWatch } from './types.ts';
import { WatchLiveness } from './watch-terms.ts';

/** One cached collection: a kind in one namespace ('' = cluster-scoped or all), optionally narrowed by a label selector. */
export interface CachedCollection {
  apiVersion: string;
  kind: string;
  namespace: string;
  labelSelector?: string | undefined;
}

export type Cached = KubeObject &
  SelectedObject & {
    metadata: { name: string; namespace?: string; resourceVersion?: string; managedFields?: unknown };
  };
interface WatchEvent {
  type?: string;
  object?: Cached & { code?: number };
}

const PAGE = 500;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;

/** An informer for one collection (ADR 15): a paginated LIST, then a WATCH with bookmarks; 410 or a broken stream →
 * re-list (with backoff on errors). Holds the objects without managedFields' field sets, and the resourceVersion it has
 * caught up to (every event and bookmark raises it), so a read can wait for a given one. */
export class KindCache {
  private readonly client: ListWatch;
  readonly collection: CachedCollection;
  private readonly objects = new Map<string, Cached>();
  /** label key → label value → object keys. */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private revision = -1n;
  private synced = false;
  private readonly stopping = new AbortController();
  private readonly liveness = new WatchLiveness();
  private waiters: { revision: bigint; wake: () => void }[] = [];
  private lastError: unknown;

  constructor(client: ListWatch, collection: CachedCollection) {
    this.client = client;
    this.collection = collection;
    void this.run();
  }

  /** Waits (at most `timeoutMs`) until the cache is listed and has caught up to `revision`; false when it has not. */
  async caughtUp(revision: bigint, timeoutMs: number): Promise<boolean> {
    if (this.synced && this.revision >= revision) return true;
    // Never listed and failing (no RBAC for it, kind not served): do not make every read wait.
    if (!this.synced && this.lastError) return false;
    let wake: () => void = () => undefined;
    const reached = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
    const waiter = { revision, wake };
    this.waiters.push(waiter);
    const timer = delay(timeoutMs, false, { ref: false });
    const result = await Promise.race([reached, timer]);
    this.waiters = this.waiters.filter((w) => w !== waiter);
    return result;
  }

  get(name: string, namespace = ''): Cached | undefined {
    return this.objects.get(`${namespace}/${name}`);
  }

  /** The objects `filter` accepts, ordered by namespace/name as the API server lists them. With `label`, only objects
   * carrying that label value are looked at (an index per label key, built on first use, kept with every change). */
  select(filter: (object: Cached) => boolean, label?: { key: string; value: string }): Cached[] {
    const keys = label ? [...(this.indexOf(label.key).get(label.value) ?? [])] : [...this.objects.keys()];
    return keys
      .filter((k) => this.objects.has(k))
      .sort()
      .map((k) => this.objects.get(k) as Cached)
      .filter(filter);
  }

  private indexOf(labelKey: string): Map<string, Set<string>> {
    let index = this.indexes.get(labelKey);
    if (!index) {
      this.indexes.set(labelKey, (index = new Map()));
      for (const [key, object] of this.objects) indexAdd(index, object.metadata.labels?.[labelKey], key);
    }
    return index;
  }

  private store(key: string, object: Cached | undefined): void {
    const previous = this.objects.get(key);
    for (const [labelKey, index] of this.indexes) {
      index.get(previous?.metadata.labels?.[labelKey] ?? '')?.delete(key);
      indexAdd(index, object?.metadata.labels?.[labelKey], key);
    }
    if (object) this.objects.set(key, object);
    else this.objects.delete(key);
  }

  get resourceVersion(): string {
    return this.revision < 0n ? '' : String(this.revision);
  }

  stop(): void {
    this.stopping.abort();
  }

  private async run(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    while (!this.stopping.signal.aborted) {
      try {
        const path = await this.client.path({
          apiVersion: this.collection.apiVersion,
          kind: this.collection.kind,
          namespace: this.collection.namespace || undefined,
        });
        await this.list(path);
        backoff = FIRST_BACKOFF_MS;
        await this.watch(path);
      } catch (error) {
        this.lastError = error;
        this.liveness.failed();
        await delay(backoff, undefined, { signal: this.stopping.signal, ref: false }).catch(() => undefined);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  private async list(path: string): Promise<void> {
    const fresh = new Map<string, Cached>();
    let token = '';
    let revision: string | undefined;
    do {
      const query = new URLSearchParams({
        limit: String(PAGE),
        ...(token ? { continue: token } : {}),
        ...this.selectorQuery(),
      });
      const page = await this.client.request<{
        items: Cached[];
        metadata: { resourceVersion?: string; continue?: string };
      }>('GET', `${path}?${query}`);
      for (const item of page.items) fresh.set(keyOf(item), this.trimmed(item));
      revision ??= page.metadata.resourceVersion;
      token = page.metadata.continue ?? '';
    } while (token);
    this.objects.clear();
    this.indexes.clear();
    for (const [key, object] of fresh) this.objects.set(key, object);
    this.synced = true;
    this.lastError = undefined;
    this.advance(revision);
  }

  /** Until the server ends the watch (then re-watch from the last revision) or it expires (then re-list). */
  private async watch(path: string): Promise<void> {
    for (;;) {
      let expired = false;
      const { timeoutSeconds, idleMs } = this.liveness.next();
      const query = new URLSearchParams({
        watch: '1',
        allowWatchBookmarks: 'true',
        resourceVersion: this.resourceVersion,
        timeoutSeconds: String(timeoutSeconds),
        ...this.selectorQuery(),
      });
      await this.client.watch(
        `${path}?${query}`,
        (event) => {
          if (!this.apply(event as WatchEvent)) expired = true;
        },
        this.stopping.signal,
        idleMs,
        () => this.liveness.opened(Date.now()),
      );
      if (expired || this.stopping.signal.aborted) return;
    }
  }

  /** One watch event into the store; false when the watch expired (410) or failed. */
  private apply({ type, object }: WatchEvent): boolean {
    if (!object) return true;
    if (type === 'BOOKMARK') this.liveness.bookmark(Date.now());
    if (type === 'ERROR') {
      this.lastError = new Error(`watch ended with ${object.code ?? 'an error'}`);
      return false;
    }
    if (type === 'ADDED' || type === 'MODIFIED') this.store(keyOf(object), this.trimmed(object));
    if (type === 'DELETED') this.store(keyOf(object), undefined);
    this.advance(object.metadata.resourceVersion);
    return true;
  }

  private advance(resourceVersion: string | undefined): void {
    const revision = revisionOf(resourceVersion);
    if (revision === undefined || revision <= this.revision) return;
    this.revision = revision;
    for (const waiter of this.waiters.filter((w) => w.revision <= revision)) waiter.wake();
  }

  /** managedFields without their field sets (the bulk of an object; who wrote when is kept, the resync orders by it),
   * with apiVersion and kind (list items may lack them). */
  private trimmed(object: Cached): Cached {
    const metadata = { ...object.metadata };
    if (Array.isArray(metadata.managedFields))
      metadata.managedFields = (metadata.managedFields as ManagedFieldsEntry[]).map(
        ({ manager, operation, subresource, time }) => ({ manager, operation, subresource, time }),
      );
    return { ...object, apiVersion: this.collection.apiVersion, kind: this.collection.kind, metadata };
  }

  private selectorQuery(): Record<string, string> {
    return this.collection.labelSelector ? { labelSelector: this.collection.labelSelector } : {};
  }
}

interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: string;
}

const keyOf = (object: Cached) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;

function indexAdd(index: Map<string, Set<string>>, value: string | undefined, key: string): void {
  if (value === undefined) return;
  let keys = index.get(value);
  if (!keys) index.set(value, (keys = new Set()));
  keys.add(key);
}
