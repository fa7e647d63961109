// What a drift check reads of a module's objects (ADR 57, 76): one LIST per kind and namespace by the managed-by label
// from the API server's watch cache, kept a few seconds: a Kyma's modules read each kind once. What a list lacks (gone,
// label taken off, list refused) is read by name, live, as every other call reads it.
import { LABEL, MANAGED_BY_RUNTIME } from '../core/vocabulary.ts';
import type { KubeClient } from './client.ts';
import { listAll } from './list.ts';
import type { KubeObject, ObjectRef } from './types.ts';

/** How long a list answers reads: long enough for a Kyma's modules checked one after the other, short enough that
 * what it holds is not the process's memory at 5,000 Kymas. */
export const LISTED_MS = 10_000;
/** Kinds read by name even so: cluster-wide lists (CRDs carry their whole schema). */
const BY_NAME = new Set(['CustomResourceDefinition']);

/** The object read by name (null: not there); undefined when the read failed (the caller reads and reports again). */
export const readByName = <T extends KubeObject>(client: KubeClient, ref: ObjectRef): Promise<T | null | undefined> =>
  client.get<T>(ref).then(
    (object) => object ?? null,
    () => undefined,
  );

type Listed = Promise<ReadonlyMap<string, KubeObject> | undefined>;

export class ListedReads {
  private readonly lists = new WeakMap<KubeClient, Map<string, Listed>>();
  /** Cluster-scoped objects read by name, by API server (every Kyma's client there reads the same objects). */
  private readonly byServer = new Map<string, Promise<KubeObject | null | undefined>>();
  private readonly keepMs: number;

  constructor(keepMs = LISTED_MS) {
    this.keepMs = keepMs;
  }

  /** The object as it is on `client` (null: not there); undefined when it could not be read. */
  async read<T extends KubeObject>(client: KubeClient, ref: ObjectRef): Promise<T | null | undefined> {
    const listed = ref.namespace && !BY_NAME.has(ref.kind) ? await this.listed(client, ref) : undefined;
    const found = listed?.get(ref.name);
    return found ? (found as T) : readByName<T>(client, ref);
  }

  /** A cluster-scoped object as it is on `client`'s API server, read by name once per `keepMs` for all the clients of
   * that server (ADR 92: what a shared runtime's Kymas all ship, ADR 32); namespaced ones as `read` gives them. */
  async readOnServer<T extends KubeObject>(client: KubeClient, ref: ObjectRef): Promise<T | null | undefined> {
    if (ref.namespace) return this.read<T>(client, ref);
    const key = `${client.server}\n${ref.apiVersion}\n${ref.kind}\n${ref.name}`;
    const read = this.byServer.get(key) ?? this.keep(this.byServer, key, readByName(client, ref));
    return (await read) as T | null | undefined;
  }

  /** The kind's labelled objects in the ref's namespace, by name: listed once per `keepMs` (calls meanwhile share it). */
  private listed(client: KubeClient, ref: ObjectRef): Listed {
    let byKey = this.lists.get(client);
    if (!byKey) this.lists.set(client, (byKey = new Map()));
    const key = `${ref.apiVersion}\n${ref.kind}\n${ref.namespace ?? ''}`;
    const kept = byKey.get(key);
    if (kept) return kept;
    const { apiVersion, kind, namespace = '' } = ref;
    const labelSelector = `${LABEL.managedBy}=${MANAGED_BY_RUNTIME}`;
    const listed: Listed = listAll(client, apiVersion, kind, { namespace, labelSelector, freshness: 'any' })
      // A list's items carry no apiVersion and kind: they are the ones asked for.
      .then((items) => new Map(items.map((o) => [o.metadata?.name ?? '', { ...o, apiVersion, kind }])))
      .catch(() => undefined);
    return this.keep(byKey, key, listed);
  }

  /** `value` answers for `key` in `entries` for `keepMs`, then goes (unless replaced meanwhile). */
  private keep<V>(entries: Map<string, V>, key: string, value: V): V {
    entries.set(key, value);
    setTimeout(() => entries.get(key) === value && entries.delete(key), this.keepMs).unref();
    return value;
  }
}
