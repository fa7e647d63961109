import type { KubeClient } from '../../shared/kube/client.ts';
import { revisionOf } from '../../shared/kube/freshness.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { managerOf, moduleReadiness, type Readiness } from '../../shared/render/readiness.ts';
import { NamespaceWatch, versionOf } from './namespace-watch.ts';

/** PURE. Whether a look at the workload's rollout is worth it: the module is still Processing and has a workload. */
export const worthWatching = (readiness: Readiness, applied: readonly RuntimeObject[], watchMs: number): boolean =>
  watchMs > 0 && readiness.state === 'Processing' && Boolean(versionOf(managerOf(applied)));

/** How many rollouts one process waits for at once: a wait holds its call (and the broker's delivery slot) for up to
 * the window; over this, a call writes Processing and retries as before (ADR 61). */
export const WATCHES_AT_ONCE = 16;

/** A module still Processing: its workload watched for at most the window from the version applied (ADR 61), so the
 * call answers once the rollout settles instead of writing Processing and retrying; the calls waiting in one runtime
 * namespace share one watch (ADR 71). A watch that fails leaves the objects as they were. */
export class RolloutWatch {
  private waiting = 0;
  private readonly windowMs: number;
  private readonly most: number;
  private readonly open = new WeakMap<KubeClient, Map<string, NamespaceWatch>>();

  constructor(windowMs: number, most = WATCHES_AT_ONCE) {
    this.windowMs = windowMs;
    this.most = most;
  }

  async settle(runtime: KubeClient, applied: RuntimeObject[]): Promise<RuntimeObject[]> {
    const manager = managerOf(applied);
    const from = versionOf(manager);
    if (
      !manager ||
      !from ||
      this.waiting >= this.most ||
      !worthWatching(moduleReadiness(applied), applied, this.windowMs)
    )
      return applied;
    this.waiting++;
    try {
      const { apiVersion, kind, metadata } = manager;
      const path = await runtime.path({ apiVersion, kind, namespace: metadata.namespace });
      const revision = revisionOf(from);
      return await this.watchAt(runtime, path, from, revision).wait(metadata.name, revision, applied);
    } catch {
      return applied;
    } finally {
      this.waiting--;
    }
  }

  /** The open watch of `path` that sees every state after revision `from`, or a new one opened there. */
  private watchAt(runtime: KubeClient, path: string, from: string, revision: bigint | undefined): NamespaceWatch {
    let byPath = this.open.get(runtime);
    if (!byPath) this.open.set(runtime, (byPath = new Map()));
    const current = byPath.get(path);
    if (current?.takes(revision)) return current;
    const watch = new NamespaceWatch(this.windowMs, from);
    byPath.set(path, watch);
    watch.open(runtime, path, () => {
      if (byPath.get(path) === watch) byPath.delete(path);
    });
    return watch;
  }
}
