import { currentFreshness, kindKey } from './freshness.ts';
import { KindCache, type Cached } from './kind-cache.ts';
import { fieldsMatch, fieldTerms, labelsMatch, narrowerThan, selectorTerms } from './selectors.ts';
import type { CachedKind, KubeObject, ListOptions, ListWatch, ObjectList, ObjectRef } from './types.ts';
import { jsonCopy } from './json-copy.ts';

/** How long a read waits for the cache to be listed or to catch up before it goes to the API server. */
const CATCH_UP_MS = 10_000;

/** The watch caches of one KCP client (ADR 15), one informer per kind and namespace, started by the first read. A read
 * is served only when the kind is cached for the caller, the cache can answer it and has caught up with what the call
 * has seen (Freshness); otherwise the caller reads from the API server. Objects handed out are copies. */
export class ReadCache {
  private readonly client: ListWatch;
  private readonly informers = new Map<string, KindCache>();
  private stopped = false;

  constructor(client: ListWatch) {
    this.client = client;
  }

  async get<T extends KubeObject>(
    kinds: readonly CachedKind[],
    ref: ObjectRef,
  ): Promise<{ object: T | undefined } | undefined> {
    const spec = kinds.find((k) => k.apiVersion === ref.apiVersion && k.kind === ref.kind);
    if (!spec || spec.labelSelector) return undefined;
    const cache = await this.caughtUp(spec, ref.namespace ?? '');
    const object = cache?.get(ref.name, ref.namespace ?? '');
    return cache ? { object: object && (jsonCopy(object) as unknown as T) } : undefined;
  }

  /** With `copy` false the cached objects themselves are handed out: only for callers that never change them. */
  async list<T extends KubeObject>(
    kinds: readonly CachedKind[],
    apiVersion: string,
    kind: string,
    opts: ListOptions,
    copy = true,
  ): Promise<ObjectList<T> | undefined> {
    const spec = kinds.find((k) => k.apiVersion === apiVersion && k.kind === kind);
    const labels = selectorTerms(opts.labelSelector);
    const fields = fieldTerms(opts.fieldSelector);
    if (!spec || !labels || !fields) return undefined;
    if (spec.labelSelector && !narrowerThan(labels, selectorTerms(spec.labelSelector) ?? [])) return undefined;
    const cache = await this.caughtUp(spec, opts.namespace ?? '');
    if (!cache) return undefined;
    const matches = (o: Cached) => labelsMatch(o, labels) && fieldsMatch(o, fields);
    const named = opts.namespace ? fields.find((t) => t.key === 'metadata.name' && t.op === '=') : undefined;
    const equal = labels.find((t) => t.op === '=');
    const items = named
      ? [cache.get(named.value ?? '', opts.namespace)].filter((o): o is Cached => o !== undefined && matches(o))
      : cache.select(matches, equal && { key: equal.key, value: equal.value ?? '' });
    return {
      items: (copy ? jsonCopy(items) : items) as unknown as T[],
      metadata: { resourceVersion: cache.resourceVersion },
    };
  }

  /** The resourceVersion the informer of a cached collection has caught up to; '' when it is not cached or listed. */
  revision(kinds: readonly CachedKind[], apiVersion: string, kind: string, namespace: string): string {
    const spec = kinds.find((k) => k.apiVersion === apiVersion && k.kind === kind);
    return spec ? (this.informers.get(informerKey(spec, namespace))?.resourceVersion ?? '') : '';
  }

  /** Stops every informer; later reads go to the API server. */
  stop(): void {
    this.stopped = true;
    for (const informer of this.informers.values()) informer.stop();
    this.informers.clear();
  }

  private async caughtUp(spec: CachedKind, namespace: string): Promise<KindCache | undefined> {
    const key = informerKey(spec, namespace);
    if (this.stopped) return undefined;
    let informer = this.informers.get(key);
    if (!informer) this.informers.set(key, (informer = new KindCache(this.client, { ...spec, namespace })));
    const needed = currentFreshness()?.required(kindKey(spec.apiVersion, spec.kind)) ?? 0n;
    return (await informer.caughtUp(needed, CATCH_UP_MS)) ? informer : undefined;
  }
}

const informerKey = (spec: CachedKind, namespace: string) =>
  `${spec.apiVersion}/${spec.kind}/${namespace}/${spec.labelSelector ?? ''}`;
