import type { KubeClient } from '../../shared/kube/client.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { managerOf, moduleReadiness, type Readiness } from '../../shared/render/readiness.ts';

interface WatchEvent {
  type?: string;
  object?: RuntimeObject;
}

/** PURE. Whether a look at the workload's rollout is worth it: the module is still Processing and has a workload. */
export const worthWatching = (readiness: Readiness, applied: readonly RuntimeObject[], watchMs: number): boolean =>
  watchMs > 0 && readiness.state === 'Processing' && Boolean(versionOf(managerOf(applied)));

const versionOf = (object: RuntimeObject | undefined): string | undefined =>
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

/** How many rollouts one process watches at once: a watch holds its call (and the broker's delivery slot) for up to the
 * window; over this, a call writes Processing and retries as before (ADR 61). */
export const WATCHES_AT_ONCE = 16;

/** A module still Processing: its workload watched for at most the window from the version applied (ADR 61), one
 * request that answers as soon as its controller reports the rollout, instead of a Processing status write and a
 * retry. Answers the objects with the workload as last seen; a watch that fails leaves them as they were. */
export class RolloutWatch {
  private watching = 0;
  private readonly windowMs: number;
  private readonly most: number;

  constructor(windowMs: number, most = WATCHES_AT_ONCE) {
    this.windowMs = windowMs;
    this.most = most;
  }

  async settle(runtime: KubeClient, applied: RuntimeObject[]): Promise<RuntimeObject[]> {
    const manager = managerOf(applied);
    if (!manager || this.watching >= this.most || !worthWatching(moduleReadiness(applied), applied, this.windowMs))
      return applied;
    this.watching++;
    try {
      return await watchRollout(runtime, applied, manager, this.windowMs);
    } finally {
      this.watching--;
    }
  }
}

async function watchRollout(
  runtime: KubeClient,
  applied: RuntimeObject[],
  manager: RuntimeObject,
  watchMs: number,
): Promise<RuntimeObject[]> {
  const { apiVersion, kind, metadata } = manager;
  const query = new URLSearchParams({
    watch: '1',
    fieldSelector: `metadata.name=${metadata.name}`,
    resourceVersion: versionOf(manager) ?? '',
    timeoutSeconds: String(Math.ceil(watchMs / 1000)),
  });
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), watchMs);
  let latest = applied;
  const onEvent = (event: unknown) => {
    const { type, object } = event as WatchEvent;
    if ((type !== 'MODIFIED' && type !== 'ADDED') || !object) return stop.abort();
    const seen = withWorkload(latest, object);
    latest = seen.applied;
    if (seen.settled) stop.abort();
  };
  try {
    const path = await runtime.path({ apiVersion, kind, namespace: metadata.namespace });
    await runtime.watch(`${path}?${query}`, onEvent, stop.signal, watchMs + 1_000);
  } catch {
    // A watch refused or broken: the module is judged as applied, and its retry reads the workload again.
  } finally {
    clearTimeout(timer);
  }
  return latest;
}
