import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, request, type RequestOptions } from 'node:https';
import { apiErrorFrom, isNotFound } from './errors.ts';
import { Discovery, type ResourceInfo } from './discovery.ts';

/** Any Kubernetes object as plain JSON. */
export interface KubeObject {
  apiVersion?: string | undefined;
  kind?: string | undefined;
  metadata?: { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined } | undefined;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string | undefined;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
}

export interface ObjectList<T> {
  items: T[];
  metadata: { resourceVersion?: string; continue?: string };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/**
 * A small JSON client for any Kubernetes API server: objects travel as plain JSON, untouched (no typed
 * models that drop unknown or `x-kubernetes-*` fields), over one keep-alive agent per cluster.
 */
export class KubeClient {
  readonly server: string;
  private readonly options: RequestOptions;
  private readonly discovery: Discovery;

  private constructor(server: string, options: RequestOptions) {
    this.server = server;
    this.options = options;
    this.discovery = new Discovery((path) => this.request('GET', path));
  }

  static async from(kc: KubeConfig): Promise<KubeClient> {
    const server = kc.getCurrentCluster()?.server;
    if (!server) throw new Error('kubeconfig has no current cluster');
    const tls: RequestOptions = {};
    await kc.applyToHTTPSOptions(tls);
    const { ca, cert, key, headers, rejectUnauthorized } = tls;
    const agent = new Agent({ keepAlive: true, maxSockets: 32, ca, cert, key, ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }) });
    return new KubeClient(server.replace(/\/$/, ''), { agent, headers: { ...headers } });
  }

  resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    return this.discovery.resource(apiVersion, kind);
  }

  /** The apiVersion under which the server serves a group's kind now (preferred first), or undefined. */
  async servedVersionOf(group: string, kind: string): Promise<string | undefined> {
    if (!group) return (await this.resource('v1', kind).catch(() => undefined)) ? 'v1' : undefined;
    return (await this.discovery.resourceOfGroupKind(group, kind, (path) => this.request('GET', path)))?.apiVersion;
  }

  async path(ref: Omit<ObjectRef, 'name'> & { name?: string | undefined }): Promise<string> {
    const info = await this.resource(ref.apiVersion, ref.kind);
    const ns = info.namespaced && ref.namespace ? `/namespaces/${encodeURIComponent(ref.namespace)}` : '';
    return `${info.base}${ns}/${info.plural}${ref.name ? `/${encodeURIComponent(ref.name)}` : ''}`;
  }

  async get<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    return this.request<T>('GET', await this.path(ref)).catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
  }

  async list<T extends KubeObject>(apiVersion: string, kind: string, opts: ListOptions = {}): Promise<ObjectList<T>> {
    const query = new URLSearchParams();
    if (opts.labelSelector) query.set('labelSelector', opts.labelSelector);
    if (opts.fieldSelector) query.set('fieldSelector', opts.fieldSelector);
    if (opts.limit) query.set('limit', String(opts.limit));
    if (opts.continue) query.set('continue', opts.continue);
    const qs = query.size ? `?${query}` : '';
    return this.request('GET', `${await this.path({ apiVersion, kind, namespace: opts.namespace })}${qs}`);
  }

  /** Server-side apply (force) as `fieldManager`; `subresource` 'status' applies the status. */
  async apply<T extends KubeObject>(object: T, fieldManager: string, subresource = ''): Promise<T> {
    const path = await this.path(refOf(object));
    const qs = `?fieldManager=${encodeURIComponent(fieldManager)}&force=true`;
    return this.request('PATCH', `${path}${subresource ? `/${subresource}` : ''}${qs}`, object, APPLY);
  }

  async mergePatch<T extends KubeObject>(ref: ObjectRef, patch: object, subresource = ''): Promise<T> {
    return this.request('PATCH', `${await this.path(ref)}${subresource ? `/${subresource}` : ''}`, patch, MERGE);
  }

  async create<T extends KubeObject>(object: T, dryRun = false, fieldManager = ''): Promise<T> {
    const ref = refOf(object);
    const query = new URLSearchParams({ ...(dryRun ? { dryRun: 'All' } : {}), ...(fieldManager ? { fieldManager } : {}) });
    return this.request('POST', `${await this.path({ ...ref, name: undefined })}${query.size ? `?${query}` : ''}`, object);
  }

  /** Deletes; true when a delete was issued, false when the object was already gone. */
  async delete(ref: ObjectRef, propagationPolicy: 'Background' | 'Foreground' = 'Background'): Promise<boolean> {
    try {
      await this.request('DELETE', await this.path(ref), { propagationPolicy });
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  request<T>(method: Method, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { ...(this.options.headers as Record<string, string>), accept: 'application/json' };
    if (payload !== undefined) Object.assign(headers, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
    return new Promise<T>((resolve, reject) => {
      const req = request(`${this.server}${path}`, { ...this.options, method, headers, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve((text ? JSON.parse(text) : undefined) as T);
          else reject(apiErrorFrom(status, text, `${method} ${path.split('?')[0]}`));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path.split('?')[0]}: timed out after 30 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}

export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion ?? '',
    kind: object.kind ?? '',
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace,
  };
}
