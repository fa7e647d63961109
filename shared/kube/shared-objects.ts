// Cluster-scoped objects every Kyma on one runtime API server shares (the lifecycle CRDs; on a shared runtime, ADR 13,
// each module's CRD and ClusterRoles), trusted for a short while once a call has seen them as desired (ADR 32). Keyed
// by the API server's URL, not by client: every Kyma's kubeconfig has a client of its own, but they share the objects.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical.ts';
import { applyUnlessCurrent } from './apply-current.ts';
import type { KubeClient } from './client.ts';
import type { KubeObject } from './types.ts';

/** How long an object seen as desired is trusted: the longest a deleted or edited shared object waits for its repair
 * beyond the drift period. */
export const SHARED_TRUST_MS = 60_000;
/** Entries kept at most (the oldest go first): a bounded memory whatever the fleet. */
const MAX_ENTRIES = 20_000;

export class SharedObjects {
  private readonly seen = new Map<string, { at: number; live: unknown }>();
  private readonly trustMs: number;

  constructor(trustMs = SHARED_TRUST_MS) {
    this.trustMs = trustMs;
  }

  /** `object` on `client`'s API server as applyUnlessCurrent leaves it; within the trust window after a call found it
   * as desired and `settled` (e.g. a CRD established), the object as that call saw it, with no request at all. */
  async apply<T extends KubeObject>(
    client: KubeClient,
    object: T,
    fieldManager: string,
    settled: (live: T) => boolean = () => true,
    now = Date.now(),
  ): Promise<T> {
    const key = `${client.server}\n${createHash('sha256')
      .update(`${fieldManager}\n${canonicalJson(object)}`)
      .digest('base64')}`;
    const known = this.seen.get(key);
    if (known && now - known.at < this.trustMs) return known.live as T;
    const live = await applyUnlessCurrent<T>(client, object, fieldManager);
    if (settled(live)) this.remember(key, slim(live), now);
    else this.seen.delete(key);
    return live;
  }

  /** Forgets what was seen on `server` (a kind it should serve was missing: something there changed). */
  forgetServer(server: string): void {
    for (const key of this.seen.keys()) if (key.startsWith(`${server}\n`)) this.seen.delete(key);
  }

  private remember(key: string, live: unknown, at: number): void {
    this.seen.delete(key);
    this.seen.set(key, { at, live });
    if (this.seen.size > MAX_ENTRIES) this.seen.delete(this.seen.keys().next().value ?? '');
  }
}

/** The process's memo: the functions of one process share it (apply-remote and aggregate-status both apply CRDs). */
export const sharedObjects = new SharedObjects();

/** A CRD is settled once established and not being deleted. */
export function crdSettled(object: object): boolean {
  const crd = object as {
    metadata?: { deletionTimestamp?: string };
    status?: { conditions?: { type: string; status: string }[] };
  };
  return (
    !crd.metadata?.deletionTimestamp &&
    Boolean(crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'))
  );
}

/** What callers read of a shared object (identity, annotations, deletion, status), without its spec and managedFields. */
function slim<T extends KubeObject>(live: T): T {
  const { apiVersion, kind, metadata, status } = live as T & { metadata?: Record<string, unknown>; status?: unknown };
  const { name, annotations, creationTimestamp, deletionTimestamp, resourceVersion } = metadata ?? {};
  return {
    apiVersion,
    kind,
    metadata: { name, annotations, creationTimestamp, deletionTimestamp, resourceVersion },
    status,
  } as unknown as T;
}
