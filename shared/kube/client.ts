import { createSecureContext } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import { USER_AGENT } from '../core/vocabulary.ts';
import { apiErrorFrom, isNotFound, retryAfterMs } from './errors.ts';
import type { ClusterConfig, TlsOptions } from './kubeconfig.ts';
import { Discovery, type ResourceInfo } from './discovery.ts';
import { currentFreshness, kindKey } from './freshness.ts';
import { ReadCache } from './read-cache.ts';
import { RecentReads } from './recent-reads.ts';
import { Http2Transport } from './http2-transport.ts';
import { tally } from './request-tally.ts';
import { noteWrite } from '../host/call-context.ts';
import { traceRequest } from '../host/otel.ts';
import { accepted, Http1Transport, labelOf, type Headers, type Method, type Transport } from './transport.ts';
import type { CachedKind, Freshness, KubeObject, ListOptions, ObjectList, ObjectRef } from './types.ts';
import { refOf } from './types.ts';
import { watchStream } from './watch-stream.ts';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/** How a client reaches its server: `connections` kept-alive HTTP/1.1 sockets at most (more requests wait for one),
 * or one HTTP/2 session (`http2`, runtimes: ADR 52). `userAgent` tells a tool's requests apart from the functions' in
 * audit logs (the plan's, ADR 39). */
export interface ClientOptions {
  connections?: number;
  http2?: boolean;
  userAgent?: string;
}

/** A small JSON client for any Kubernetes API server: objects travel as plain JSON, untouched (no typed models that
 * drop unknown or `x-kubernetes-*` fields, ADR 4), over one transport per cluster. */
export class KubeClient {
  readonly server: string;
  private readonly transport: Transport;
  /** The kubeconfig's headers (credentials) and the user agent. */
  private readonly headers: Headers;
  private readonly discovery: Discovery;
  /** The watch caches of this cluster's client (shared by its views) and the kinds this view reads from them. */
  private readonly reads: { cache: ReadCache; kinds: readonly CachedKind[] } | undefined;
  /** Objects read lately, standing in for `any` reads (ADR 88). */
  private readonly recent = new RecentReads();

  private constructor(
    server: string,
    transport: Transport,
    headers: Headers,
    base?: KubeClient,
    kinds: readonly CachedKind[] = [],
  ) {
    this.server = server;
    this.transport = transport;
    this.headers = headers;
    this.discovery = Discovery.of(server);
    this.reads = base && kinds.length ? { cache: base.caches, kinds } : undefined;
  }

  private cachesOfBase: ReadCache | undefined;
  private get caches(): ReadCache {
    return (this.cachesOfBase ??= new ReadCache(this));
  }

  /** This client, reading `kinds` from watch caches (ADR 15); one set of informers per client, shared by its views. */
  cachingReads(kinds: readonly CachedKind[]): KubeClient {
    const base = this.reads ? undefined : this;
    if (!base) throw new Error('cachingReads is called on the cluster client, not on a view');
    return new KubeClient(this.server, this.transport, this.headers, base, kinds);
  }

  /** How far the watch cache of a kind this view caches has caught up ('' when not cached or not yet listed): while
   * it stays the same, nothing in the collection changed. */
  cachedRevision(apiVersion: string, kind: string, namespace = ''): string {
    return this.reads?.cache.revision(this.reads.kinds, apiVersion, kind, namespace) ?? '';
  }

  /** Stops the informers of this client's watch caches. */
  stopCaches(): void {
    this.cachesOfBase?.stop();
  }

  /** A client of the kubeconfig's current cluster. The control plane's keeps up to 32 sockets; a runtime's one HTTP/2
   * session: every extra connection is a TLS handshake and its memory, times thousands of runtimes. */
  static async from(kc: ClusterConfig, options: ClientOptions = {}): Promise<KubeClient> {
    const { connections = 32, http2 = false, userAgent = USER_AGENT } = options;
    const server = kc.getCurrentCluster()?.server?.replace(/\/$/, '');
    if (!server) throw new Error('kubeconfig has no current cluster');
    const tls: TlsOptions = {};
    await kc.applyToHTTPSOptions(tls);
    const { ca, cert, key, headers, rejectUnauthorized } = tls;
    // One TLS context per client, shared by all its connections: a new connection then neither parses the CA,
    // certificate and key again nor hashes them into an agent's pool name.
    const secureContext = createSecureContext({ ca, cert, key });
    const trust = { secureContext, ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }) };
    const sockets = () => new Http1Transport(server, trust, connections);
    const transport = http2 ? new Http2Transport(server, trust, sockets) : sockets();
    const identified: Headers = { 'user-agent': userAgent };
    for (const [name, value] of Object.entries(headers ?? {}))
      if (value !== undefined) identified[name] = Array.isArray(value) ? value.join(', ') : value;
    return new KubeClient(server, transport, identified);
  }

  resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    return this.discovery.resource(apiVersion, kind, (path) => this.request('GET', path));
  }

  /** The apiVersion under which the server serves a group's kind now (preferred first), or undefined. */
  async servedVersionOf(group: string, kind: string): Promise<string | undefined> {
    if (!group) return (await this.resource('v1', kind).catch(() => undefined)) ? 'v1' : undefined;
    return (
      await this.discovery.resourceOfGroupKind(
        group,
        kind,
        (path) => this.request('GET', path),
        (path) => this.request('GET', path),
      )
    )?.apiVersion;
  }

  async path(ref: Omit<ObjectRef, 'name'> & { name?: string | undefined }): Promise<string> {
    const info = await this.resource(ref.apiVersion, ref.kind);
    const ns = info.namespaced && ref.namespace ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
    return `${info.base}${ns}/${info.plural}${ref.name ? `/${encodeURIComponent(ref.name)}` : ''}`;
  }

  async get<T extends KubeObject>(ref: ObjectRef, freshness: Freshness = 'live'): Promise<T | undefined> {
    const cached = await this.reads?.cache.get<T>(this.reads.kinds, ref);
    if (cached) return cached.object;
    const path = await this.path(ref);
    const qs = freshness === 'any' ? '?resourceVersion=0' : '';
    return this.recent.get(path, freshness === 'any', () =>
      this.request<T>('GET', `${path}${qs}`).catch((e: unknown) => {
        if (isNotFound(e)) return undefined;
        throw e;
      }),
    );
  }

  async list<T extends KubeObject>(apiVersion: string, kind: string, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const cached = await this.reads?.cache.list<T>(this.reads.kinds, apiVersion, kind, opts);
    if (cached) return cached;
    const query = new URLSearchParams();
    if (opts.labelSelector) query.set('labelSelector', opts.labelSelector);
    if (opts.fieldSelector) query.set('fieldSelector', opts.fieldSelector);
    if (opts.limit) query.set('limit', String(opts.limit));
    if (opts.continue) query.set('continue', opts.continue);
    // A continued page is served as of its first page's version (the token carries it).
    else if (opts.freshness === 'any') query.set('resourceVersion', '0');
    const qs = query.size ? `?${query}` : '';
    return this.request('GET', `${await this.path({ apiVersion, kind, namespace: opts.namespace })}${qs}`);
  }

  /** Every object of a collection through `project`, for read-only scans (the resync): from the watch cache without
   * copying the objects (`project` must only read them), else from the API server, 500 a page. */
  async scan<T extends KubeObject, R>(
    apiVersion: string,
    kind: string,
    opts: Pick<ListOptions, 'namespace' | 'labelSelector'>,
    project: (object: T) => R,
  ): Promise<R[]> {
    const cached = await this.reads?.cache.list<T>(this.reads.kinds, apiVersion, kind, opts, false);
    if (cached) return cached.items.map(project);
    const base = await this.path({ apiVersion, kind, namespace: opts.namespace });
    const found: R[] = [];
    let token = '';
    do {
      const query = new URLSearchParams({
        limit: '500',
        ...(token ? { continue: token } : {}),
        ...(opts.labelSelector ? { labelSelector: opts.labelSelector } : {}),
      });
      const page = await this.request<ObjectList<T>>('GET', `${base}?${query}`);
      found.push(...page.items.map(project));
      token = page.metadata.continue ?? '';
    } while (token);
    return found;
  }

  /** Server-side apply (force) as `fieldManager`; `subresource` 'status' applies the status. */
  async apply<T extends KubeObject>(object: T, fieldManager: string, subresource = ''): Promise<T> {
    const path = await this.path(refOf(object));
    const qs = `?fieldManager=${encodeURIComponent(fieldManager)}&force=true`;
    return this.written(
      object,
      await this.request<T>('PATCH', `${path}${subresource ? `/${subresource}` : ''}${qs}`, object, APPLY),
    );
  }

  async mergePatch<T extends KubeObject>(ref: ObjectRef, patch: object, subresource = ''): Promise<T> {
    return this.written(
      ref,
      await this.request<T>('PATCH', `${await this.path(ref)}${subresource ? `/${subresource}` : ''}`, patch, MERGE),
    );
  }

  async create<T extends KubeObject>(object: T, dryRun = false, fieldManager = ''): Promise<T> {
    const ref = refOf(object);
    const query = new URLSearchParams({
      ...(dryRun ? { dryRun: 'All' } : {}),
      ...(fieldManager ? { fieldManager } : {}),
    });
    const created = await this.request<T>(
      'POST',
      `${await this.path({ ...ref, name: undefined })}${query.size ? `?${query}` : ''}`,
      object,
    );
    return dryRun ? created : this.written(object, created);
  }

  /** Deletes; true when a delete was issued, false when the object was already gone. With `preconditions`, only the
   * object of that uid (another one of the name: 409). */
  async delete(
    ref: ObjectRef,
    propagationPolicy: 'Background' | 'Foreground' = 'Background',
    preconditions?: { uid?: string | undefined },
  ): Promise<boolean> {
    const options = preconditions?.uid ? { propagationPolicy, preconditions } : { propagationPolicy };
    try {
      this.written(ref, await this.request<KubeObject>('DELETE', await this.path(ref), options));
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  /** A write of a kind this view caches raises what the current call has seen of it, so its later cached reads
   * include the write. Other clusters' clients (runtimes) never note: their resourceVersions are another etcd's. */
  private written<T extends KubeObject>(
    sent: { apiVersion?: string | undefined; kind?: string | undefined },
    answer: T,
  ): T {
    if (this.reads?.kinds.some((k) => k.apiVersion === sent.apiVersion && k.kind === sent.kind)) {
      currentFreshness()?.note(kindKey(sent.apiVersion ?? '', sent.kind ?? ''), answer?.metadata?.resourceVersion);
    }
    return answer;
  }

  /** A write is noted for the call, and what was read of its object is forgotten (a create's: by its new name). */
  private wrote(method: Method, path: string, body: unknown): void {
    noteWrite();
    const name = method === 'POST' ? (body as KubeObject | undefined)?.metadata?.name : undefined;
    this.recent.forget(name ? `${path.split('?')[0] ?? ''}/${encodeURIComponent(name)}` : path);
  }

  /** A WATCH (`path` with its query): each JSON line goes to `onEvent`; ends, rejects and cuts the stream as
   * watch-stream.ts says (a line not JSON, thrown on or never ending: untrusted input). `onOpen`: the server accepted
   * it. */
  watch(
    path: string,
    onEvent: (event: unknown) => void,
    signal: AbortSignal,
    idleMs: number,
    onOpen?: () => void,
  ): Promise<void> {
    tally(this.server, 'GET', path, '');
    const headers = { ...this.headers, accept: 'application/json' };
    return watchStream(this.transport, { path, headers, signal, idleMs }, onEvent, onOpen);
  }

  async request<T>(method: Method, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Headers = { ...this.headers, accept: 'application/json' };
    if (payload !== undefined)
      Object.assign(headers, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
    for (let retries = 0; ; retries++) {
      tally(this.server, method, path, contentType);
      if (method !== 'GET') this.wrote(method, path, body);
      const { status, body: text } = await traceRequest(method, path, this.server, () =>
        this.transport.exchange(method, path, headers, payload),
      );
      if (accepted(status)) return parsed<T>(text, labelOf(method, path));
      const wait = retryAfterMs(status, text, retries);
      if (wait === undefined) throw apiErrorFrom(status, text, labelOf(method, path));
      await sleep(wait);
    }
  }
}

/** An answer's JSON; an answer that is not JSON fails without quoting it (a runtime's server is untrusted). */
function parsed<T>(text: string, label: string): T {
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${label}: the answer is not JSON`);
  }
}
