// The client's plain-JSON types, in a file of their own so that client.ts, read-cache.ts and kind-cache.ts share them
// without importing each other in a loop (client.ts → read-cache.ts → kind-cache.ts, and all three → here).

/** Any Kubernetes object as plain JSON. */
export interface KubeObject {
  apiVersion?: string | undefined;
  kind?: string | undefined;
  metadata?:
    { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined } | undefined;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string | undefined;
}

/** How a read is served (ADR 76): `live` (a quorum read through etcd) or `any` (resourceVersion=0: from the API
 * server's watch cache, at most a moment behind — what the resync's drift checks compare with). */
export type Freshness = 'live' | 'any';

export interface ListOptions {
  namespace?: string;
  freshness?: Freshness;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface ObjectList<T> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string };
}

/** A kind whose reads a function takes from the watch cache. With `labelSelector`, only that part of the kind is
 * watched and only lists at least as narrow are served (gets go to the API server). */
export interface CachedKind {
  apiVersion: string;
  kind: string;
  labelSelector?: string;
}

/** What a watch cache needs of a cluster's client (KubeClient has it): the path of a collection, a GET, a WATCH. */
export interface ListWatch {
  path(ref: Omit<ObjectRef, 'name'> & { name?: string | undefined }): Promise<string>;
  request<T>(method: 'GET', path: string): Promise<T>;
  watch(
    path: string,
    onEvent: (event: unknown) => void,
    signal: AbortSignal,
    idleMs: number,
    onOpen?: () => void,
  ): Promise<void>;
}

/** The reference of an object (its kind, name and namespace). */
export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion ?? '',
    kind: object.kind ?? '',
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace,
  };
}
