// One watched resource, sent to a sink as Knative's ApiServerSource sends it (the runtime watch's image; the local
// ApiServerSource): like Knative's reflector-based adapter, a silent LIST for the resourceVersion, then WATCH with
// bookmarks; 410 → silent re-list; errors → reconnect with backoff. An announcing watch starts without a LIST (ADR 86).
import { setTimeout as delay } from 'node:timers/promises';
import type { EventLog } from '../host/logger.ts';
import { sendToSink, type EventSink } from '../host/sink.ts';
import { apiServerEvent, type ResourceChange, type WatchedObject } from './apiserver-events.ts';
import type { KubeClient } from './client.ts';
import { KubeApiError } from './errors.ts';
import { KnownObjects } from './known-objects.ts';
import { WatchLiveness } from './watch-terms.ts';

/** One watched resource: kind, optional namespace (absent = all namespaces) and label selector. */
export interface WatchedResource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  /** Kubernetes label selector syntax, e.g. `app=x,tier in (a,b),!legacy`. */
  readonly labelSelector?: string;
  /** `spec.ceOverrides.extensions`: static extensions on every event. */
  readonly extensions?: Readonly<Record<string, string>>;
}

export interface ResourceWatchOptions {
  readonly client: KubeClient;
  readonly resource: WatchedResource;
  /** The API server URL, the `source` of every event. */
  readonly source: string;
  readonly sink: EventSink;
  readonly log: EventLog;
  /** Send `add` for every object a (re)list finds, like an informer's initial sync: an edit made while the watch was
   * down is not missed; and `delete` for an announced object a re-list or a kind no longer served lacks (ADR 75). */
  readonly announceExisting?: boolean;
  /** Called when the watched kind is found not served (404), at the first attempt or after it was served (ADR 75). */
  readonly onUnserved?: () => void;
  /** How long each WATCH is asked to last (ADR 64); one of its own by default. */
  readonly liveness?: WatchLiveness;
}

type WatchEnd = 'closed' | 'expired';
type WatchEventResult = 'ok' | 'expired' | 'failed';
interface WatchObject extends WatchedObject {
  readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string };
}

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
  private readonly liveness: WatchLiveness;
  /** What was announced, with `announceExisting`: a re-list names the objects that went unseen. */
  private readonly known: KnownObjects | undefined;
  /** Events of this resource reach the sink one after another, in watch order. */
  private sinking: Promise<void> = Promise.resolve();
  private loop: Promise<void> | undefined;

  constructor(options: ResourceWatchOptions) {
    this.options = options;
    this.liveness = options.liveness ?? new WatchLiveness();
    const { apiVersion, kind } = options.resource;
    if (options.announceExisting) this.known = new KnownObjects(apiVersion, kind);
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
    let unserved = false;
    const opened = () => {
      backoff = FIRST_BACKOFF_MS;
      unserved = false;
    };
    while (!this.stopped) {
      try {
        const path = await this.options.client.path({
          apiVersion: this.options.resource.apiVersion,
          kind: this.options.resource.kind,
          namespace: this.options.resource.namespace,
        });
        if (relist || !this.resourceVersion) this.resourceVersion = await this.versionToWatchFrom(path);
        if (this.stopped) return;
        relist = (await this.watchOnce(path, opened)) === 'expired';
      } catch (e) {
        if (this.stopped) return;
        this.liveness.failed();
        // A kind that is not served (yet) is expected, e.g. a runtime whose Kyma CRD is not synced yet: debug only.
        const absent = (e instanceof KubeApiError && e.status === 404) || /no resource for kind/.test(String(e));
        if (absent) this.announceVanished([]);
        if (absent && !unserved) this.options.onUnserved?.();
        unserved = absent;
        this.options.log[absent ? 'debug' : 'warn'](
          { ...this.describe(), err: e, retryInMs: backoff },
          'watch failed; reconnecting',
        );
        await delay(backoff, undefined, { signal: this.stopping.signal }).catch(() => undefined);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** Where the next WATCH starts: announcing, with nothing announced yet, at no version (no LIST: the API server begins
   * such a WATCH with an ADDED event for each object there, as the LIST's would be, ADR 86); else a LIST's version. */
  private versionToWatchFrom(path: string): Promise<string> {
    return this.known?.empty ? Promise.resolve('') : this.listResourceVersion(path);
  }

  /** The LIST yields the resourceVersion to watch from; objects that exist already produce no events (as in
   * Knative) unless `announceExisting` is set. */
  private async listResourceVersion(path: string): Promise<string> {
    const query = new URLSearchParams(this.options.announceExisting ? {} : { limit: '1' });
    if (this.options.resource.labelSelector) query.set('labelSelector', this.options.resource.labelSelector);
    const list = await this.options.client.request<{ metadata?: { resourceVersion?: string }; items?: WatchObject[] }>(
      'GET',
      `${path}?${query}`,
    );
    const { apiVersion, kind } = this.options.resource;
    this.announceVanished(list.items ?? []);
    if (this.options.announceExisting)
      for (const item of list.items ?? []) this.emit('add', { apiVersion, kind, ...item });
    return list.metadata?.resourceVersion ?? '';
  }

  /** One WATCH until the server ends it ('closed'), the resourceVersion expired, or an error (rejects, a silence
   * longer than the terms allow among them): how long it is asked to last is the liveness' decision (ADR 64). */
  private async watchOnce(path: string, onOpen: () => void): Promise<WatchEnd> {
    const { timeoutSeconds, idleMs } = this.liveness.next();
    const query = new URLSearchParams({
      watch: '1',
      allowWatchBookmarks: 'true',
      resourceVersion: this.resourceVersion,
      timeoutSeconds: String(timeoutSeconds),
    });
    if (this.options.resource.labelSelector) query.set('labelSelector', this.options.resource.labelSelector);
    const controller = new AbortController();
    this.current = controller;
    if (this.stopped) controller.abort();
    let result = 'ok' as WatchEventResult;
    const opened = () => {
      this.liveness.opened(Date.now());
      onOpen();
      this.markEstablished();
    };
    try {
      await this.options.client.watch(
        `${path}?${query}`,
        (event) => {
          const { type, object } = event as { type: string; object: WatchObject };
          const outcome = this.onWatchEvent(type, object);
          if (outcome !== 'ok') result = outcome;
        },
        controller.signal,
        idleMs,
        opened,
      );
    } catch (e) {
      if (e instanceof KubeApiError && e.status === 410) return 'expired';
      if (this.stopped) return 'closed';
      throw e;
    }
    if (result === 'expired') return 'expired';
    if (result === 'failed') throw new Error('the API server ended the watch with an error');
    return 'closed';
  }

  private onWatchEvent(phase: string, object: WatchObject): WatchEventResult {
    if (phase === 'ERROR') {
      const status = object as { code?: number; message?: string };
      if (status.code === 410) return 'expired';
      this.options.log.warn({ ...this.describe(), status: status.code, message: status.message }, 'watch error event');
      return 'failed';
    }
    if (phase === 'BOOKMARK') this.liveness.bookmark(Date.now());
    const resourceVersion = object.metadata?.resourceVersion;
    // A WATCH started at no version begins with its initial state, ADDED events in no order: their versions are no
    // place to resume from; the first other event (a bookmark, a change) is. Until then a new WATCH starts afresh (or
    // lists, ADR 86). Once the version is set, every event moves it.
    if (resourceVersion && (this.resourceVersion || phase !== 'ADDED')) this.resourceVersion = resourceVersion;
    const change = CHANGES[phase];
    if (change) this.emit(change, object);
    return 'ok';
  }

  /** A delete for each announced object that `listed` (all there is) lacks: it went while no WATCH said so. */
  private announceVanished(listed: readonly WatchObject[]): void {
    for (const object of this.known?.vanished(listed) ?? []) this.emit('delete', object);
  }

  private emit(change: ResourceChange, object: WatchObject): void {
    this.known?.note(change, object);
    const event = apiServerEvent(change, this.options.source, object, this.options.resource.extensions);
    this.sinking = this.sinking.then(() => sendToSink(this.options.sink, event, this.options.log));
  }

  private describe() {
    const { apiVersion, kind, namespace } = this.options.resource;
    return { apiVersion, kind, namespace: namespace ?? '(all)' };
  }
}
