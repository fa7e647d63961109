import type { KubeClient } from '../../shared/kube/client.ts';
import { revisionOf } from '../../shared/kube/freshness.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { managerOf, moduleReadiness } from '../../shared/render/readiness.ts';

export interface WatchEvent {
  type?: string;
  object?: RuntimeObject;
}

/** The resourceVersion an object was read or written at. */
export const versionOf = (object: RuntimeObject | undefined): string | undefined =>
  (object?.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;

/** PURE. The applied objects with the workload as the watch last saw it, and whether its rollout has settled (no longer
 * Processing: Ready, or Error such as a rollout that stopped progressing). */
export function withWorkload(
  applied: readonly RuntimeObject[],
  seen: RuntimeObject,
): { applied: RuntimeObject[]; settled: boolean } {
  const manager = managerOf(applied);
  const next = applied.map((o) => (o === manager ? seen : o));
  return { applied: next, settled: moduleReadiness(next).state !== 'Processing' };
}

/** A call waiting for its workload's rollout: the workload's name, the revision it applied, the objects as last seen. */
export interface Waiting {
  name: string;
  from: bigint | undefined;
  latest: RuntimeObject[];
}

/** PURE. What one event of a namespace's workloads means for a call waiting there: nothing (another workload, or any
 * event older than the call's apply: a settled state of the previous spec, a deletion the apply undid), the wait ended
 * (the workload deleted), or the objects with the workload as seen and whether its rollout settled. */
export function eventFor(
  waiting: Waiting,
  event: WatchEvent,
): { kind: 'none' } | { kind: 'ended' } | { kind: 'seen'; applied: RuntimeObject[]; settled: boolean } {
  const { type, object } = event;
  // A runtime's server is untrusted: an event without an object or metadata means nothing.
  if (!object?.metadata || object.metadata.name !== waiting.name) return { kind: 'none' };
  const revision = revisionOf(versionOf(object));
  if (waiting.from !== undefined && (revision === undefined || revision < waiting.from)) return { kind: 'none' };
  if (type === 'DELETED') return { kind: 'ended' };
  if (type !== 'ADDED' && type !== 'MODIFIED') return { kind: 'none' };
  return { kind: 'seen', ...withWorkload(waiting.latest, object) };
}

/** How many workloads' newest events one watch keeps for calls that join after them (a runtime's server is untrusted). */
const SEEN_WORKLOADS = 1_000;

interface Waiter extends Waiting {
  finish: (objects: RuntimeObject[]) => void;
  timer: NodeJS.Timeout;
}

/** One watch of a runtime namespace's workloads of one kind from one revision, shared by the calls that wait there for
 * a rollout (ADR 71): each waits at most the window, joins within one window after it opened (the server ends it after
 * two) and starts from its workload's newest event so far; the watch ends when the last one stops waiting. */
export class NamespaceWatch {
  private readonly from: bigint | undefined;
  private readonly fromVersion: string;
  private readonly opened = Date.now();
  private readonly waiters = new Set<Waiter>();
  /** Each workload's newest event so far: a call that joins after its workload's events passed starts from them. */
  private readonly seen = new Map<string, WatchEvent>();
  private readonly stop = new AbortController();
  private readonly windowMs: number;
  private closed = false;

  constructor(windowMs: number, from: string) {
    this.windowMs = windowMs;
    this.fromVersion = from;
    this.from = revisionOf(from);
  }

  /** Opens the watch at its revision on `path` (a namespaced list path); `onClosed` runs once it has ended. */
  open(runtime: KubeClient, path: string, onClosed: () => void): void {
    const lifeMs = 2 * Math.ceil(this.windowMs / 1000) * 1000;
    const resourceVersion = this.fromVersion;
    const query = new URLSearchParams({ watch: '1', resourceVersion, timeoutSeconds: String(lifeMs / 1000) });
    runtime
      .watch(`${path}?${query}`, (event) => this.onEvent(event as WatchEvent), this.stop.signal, lifeMs + 1_000)
      // A watch refused or broken: the modules are judged as applied, and their retries read the workload again.
      .catch(() => undefined)
      .finally(() => {
        this.close();
        onClosed();
      });
  }

  /** Whether a call that applied its workload at revision `from` can wait here: still open, opened within the window,
   * and at or before that revision (so that it misses none of the workload's states after the apply). */
  takes(from: bigint | undefined, now = Date.now()): boolean {
    return (
      !this.closed &&
      from !== undefined &&
      this.from !== undefined &&
      this.from <= from &&
      now - this.opened <= this.windowMs
    );
  }

  /** Waits for workload `name` to settle, for at most the window: the objects with the workload as last seen. */
  wait(name: string, from: bigint | undefined, applied: RuntimeObject[]): Promise<RuntimeObject[]> {
    return new Promise((resolve) => {
      const waiter: Waiter = { name, from, latest: applied, finish: resolve, timer: undefined as never };
      waiter.timer = setTimeout(() => this.done(waiter), this.windowMs);
      this.waiters.add(waiter);
      const passed = this.seen.get(name);
      if (passed) this.take(waiter, passed);
    });
  }

  private onEvent(event: WatchEvent): void {
    if (event.type === 'ERROR') return this.close();
    const name = event.object?.metadata?.name;
    if (typeof name === 'string' && (this.seen.has(name) || this.seen.size < SEEN_WORKLOADS))
      this.seen.set(name, event);
    for (const waiter of [...this.waiters]) this.take(waiter, event);
  }

  private take(waiter: Waiter, event: WatchEvent): void {
    const meant = eventFor(waiter, event);
    if (meant.kind === 'ended') return this.done(waiter);
    if (meant.kind !== 'seen') return;
    waiter.latest = meant.applied;
    if (meant.settled) this.done(waiter);
  }

  private done(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.finish(waiter.latest);
    if (!this.waiters.size) this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of [...this.waiters]) this.done(waiter);
    this.stop.abort();
  }
}
