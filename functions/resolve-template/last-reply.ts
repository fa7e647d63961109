// The versions a drift check's `modules.resolved` reply was sent at, per Kyma (ADR 95): a drift check that finds the
// Kyma, its Manifests and the catalog at those versions within 1.5 drift periods leaves its reply out.
import type { Kyma } from '../../shared/core/kyma.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { catalogVersionsIn, manifestVersions } from '../../shared/kube/versions.ts';

/** What render-manifest reads for a Kyma, by version: the Kyma, its Manifests, and the catalog of its namespace and
 * of every namespace its resolved templates are in. */
export interface ReplySeen {
  kyma: string;
  manifests: string;
  catalog: string;
}

/** PURE. The namespaces whose catalog a Kyma's Manifests are rendered from, sorted. */
export const catalogNamespacesOf = (kyma: Kyma): string[] => {
  const own = kyma.metadata.namespace ?? '';
  const resolved = (kyma.status?.modules ?? []).map((m) => m.template?.metadata.namespace || own);
  return [...new Set([own, ...resolved])].sort();
};

export async function replySeen(kcp: KubeClient, kyma: Kyma): Promise<ReplySeen> {
  const catalogs = await Promise.all(catalogNamespacesOf(kyma).map((ns) => catalogVersionsIn(kcp, ns)));
  return {
    kyma: kyma.metadata.resourceVersion ?? '',
    manifests: await manifestVersions(kcp, kyma),
    catalog: catalogs.join(';'),
  };
}

/** Per Kyma uid, per instance (a restart or another instance replies once more). The catalog text is shared by every
 * Kyma that saw the same one, and entries older than the window go when the memory has doubled since the last sweep. */
export class LastReplies {
  private readonly byUid = new Map<string, { seen: ReplySeen; at: number }>();
  private catalog = '';
  private sweptAt = 0;
  private readonly withinMs: number;

  constructor(withinMs: number) {
    this.withinMs = withinMs;
  }

  /** Whether the last reply for `uid`, less than the window ago, saw exactly `seen`. */
  same(uid: string, seen: ReplySeen, now = Date.now()): boolean {
    const last = this.byUid.get(uid);
    if (!last || now - last.at >= this.withinMs) return false;
    const { kyma, manifests, catalog } = last.seen;
    return kyma === seen.kyma && manifests === seen.manifests && catalog === seen.catalog;
  }

  remember(uid: string, seen: ReplySeen, now = Date.now()): void {
    if (seen.catalog === this.catalog) seen = { ...seen, catalog: this.catalog };
    else this.catalog = seen.catalog;
    this.byUid.set(uid, { seen, at: now });
    if (this.byUid.size < 2 * Math.max(this.sweptAt, 500)) return;
    for (const [key, { at }] of this.byUid) if (now - at >= this.withinMs) this.byUid.delete(key);
    this.sweptAt = this.byUid.size;
  }
}
