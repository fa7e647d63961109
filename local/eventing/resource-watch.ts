// One watched resource of the local ApiServerSource, behaving like Knative's reflector-based adapter: a silent LIST
// for the resourceVersion, then WATCH with bookmarks; 410 → silent re-list; errors → reconnect with backoff.
import { Watch, type KubeConfig } from '@kubernetes/client-node';
import { setTimeout as delay } from 'node:timers/promises';
import type { KubeClient } from '../../shared/kube/client.ts';
import { apiServerEvent, type ResourceChange, type WatchedObject } from './apiserver-events.ts';
import type { WatchedResource } from './apiserver-source-spec.ts';
import type { EventingLog } from './log.ts';
import { sendToSink, type EventSink } from './sink.ts';

export interface ResourceWatchOptions {
  readonly kubeConfig: KubeConfig;
  readonly client: KubeClient;
  readonly resource: WatchedResource;
  /** The API server URL, the `source` of every event. */
  readonly source: string;
  readonly sink: EventSink;
  readonly log: EventingLog;
  /** Send `add` for every object a (re)list finds (see LocalApiServerSourceOptions). */
  readonly announceExisting?: boolean;
}

type WatchEnd = 'closed' | 'expired';
type WatchEventResult = 'ok' | 'expired' | 'failed';
interface WatchObject extends WatchedObject { readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string } }

const CHANGES: Readonly<Record<string, ResourceChange>> = { ADDED: 'add', MODIFIED: 'update', DELETED: 'delete' };
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export class ResourceWatch {
  /** Resolves when the first WATCH is open. */
  readonly established: Promise<void>;
  private markEstablished: () => void = () => undefined;
  private readonly options: ResourceWatchOptions;
  private readonly stopping = new AbortController();
  private current: AbortController | undefined;
  private resourceVersion = '';
  /** Events of this resource reach the sink one after another, in watch order. */
  private sinking: Promise<void> = Promise.resolve();
  private loop: Promise<void> | undefined;

  constructor(options: ResourceWatchOptions) {
    this.options = options;
    this.established = new Promise((resolve) => (this.markEstablished = resolve));
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.current?.abort();
    await this.loop;
    await this.sinking;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    let relist = true;
    while (!this.stopped) {
      try {
        const path = await this.options.client.path({ apiVersion: this.options.resource.apiVersion, kind: this.options.resource.kind, namespace: this.options.resource.namespace });
        if (relist) this.resourceVersion = await this.listResourceVersion(path);
        if (this.stopped) return;
        relist = (await this.watchOnce(path, () => (backoff = FIRST_BACKOFF_MS))) === 'expired';
      } catch (e) {
        if (this.stopped) return;
        // A kind that is not served (yet) is expected, e.g. a runtime whose Kyma CRD is not synced yet: debug only.
        const absent = (e as { statusCode?: number }).statusCode === 404 || /no resource for kind/.test(String(e));
        this.options.log[absent ? 'debug' : 'warn']({ ...this.describe(), err: e, retryInMs: backoff }, 'watch failed; reconnecting');
        await delay(backoff, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** The LIST yields the resourceVersion to watch from; objects that exist already produce no events (as in
   * Knative) unless `announceExisting` is set. */
  private async listResourceVersion(path: string): Promise<string> {
    const query = new URLSearchParams(this.options.announceExisting ? {} : { limit: '1' });
    if (this.options.resource.labelSelector) query.set('labelSelector', this.options.resource.labelSelector);
    const list = await this.options.client.request<{ metadata?: { resourceVersion?: string }; items?: WatchObject[] }>('GET', `${path}?${query}`);
    const { apiVersion, kind } = this.options.resource;
    if (this.options.announceExisting) for (const item of list.items ?? []) this.emit('add', { apiVersion, kind, ...item });
    return list.metadata?.resourceVersion ?? '';
  }

  /** One WATCH until the server ends it ('closed'), the resourceVersion expired, or an error (rejects). */
  private watchOnce(path: string, onOpen: () => void): Promise<WatchEnd> {
    const timeoutSeconds = 300 + Math.floor(Math.random() * 300);
    const watch = new Watch(this.options.kubeConfig);
    // client-node aborts a watch after 30 s without data; a server-side timeout like client-go's (5-10 min) needs more.
    Reflect.set(watch, 'requestTimeoutMs', (timeoutSeconds + 60) * 1000);
    return new Promise<WatchEnd>((resolve, reject) => {
      let ended = false;
      let result: WatchEventResult = 'ok';
      const done = (err: unknown) => {
        ended = true;
        if (result === 'expired' || statusOf(err) === 410) resolve('expired');
        else if (result === 'failed') reject(new Error('the API server ended the watch with an error'));
        else if (!err || this.stopped || isTimeout(err)) resolve('closed');
        else reject(err instanceof Error ? err : new Error(String(err)));
      };
      const query = { resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds, labelSelector: this.options.resource.labelSelector };
      watch.watch(path, query, (phase: string, object: unknown) => {
        const outcome = this.onWatchEvent(phase, object as WatchObject);
        if (outcome !== 'ok') result = outcome;
      }, done).then((controller) => {
        this.current = controller;
        if (this.stopped) controller.abort();
        if (ended) return;
        onOpen();
        this.markEstablished();
      }, done);
    });
  }

  private onWatchEvent(phase: string, object: WatchObject): WatchEventResult {
    if (phase === 'ERROR') {
      const status = object as { code?: number; message?: string };
      if (status.code === 410) return 'expired';
      this.options.log.warn({ ...this.describe(), status: status.code, message: status.message }, 'watch error event');
      return 'failed';
    }
    const resourceVersion = object.metadata?.resourceVersion;
    if (resourceVersion) this.resourceVersion = resourceVersion;
    const change = CHANGES[phase];
    if (change) this.emit(change, object);
    return 'ok';
  }

  private emit(change: ResourceChange, object: WatchObject): void {
    const event = apiServerEvent(change, this.options.source, object, this.options.resource.extensions);
    this.sinking = this.sinking.then(() => sendToSink(this.options.sink, event, this.options.log));
  }

  private describe() {
    const { apiVersion, kind, namespace } = this.options.resource;
    return { apiVersion, kind, namespace: namespace ?? '(all)' };
  }
}

function statusOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
}
