import { KubeApiError } from './errors.ts';

export interface ResourceInfo {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  base: string;
  plural: string;
  namespaced: boolean;
}

export interface ApiGroup {
  preferredVersion?: { groupVersion: string };
  versions?: { groupVersion: string }[];
}

interface ApiResourceList {
  resources: { name: string; kind: string; namespaced: boolean }[];
}

type Fetch = (path: string) => Promise<ApiResourceList>;

/** Servers whose discovery is kept at most (the oldest are forgotten first). */
const MAX_SERVERS = 50_000;
const byServer = new Map<string, Discovery>();

/** Kind → resource mapping per group version, cached; re-read once when a kind is missing (new CRDs). One per API
 * server, shared by every client of it (ADR 32); each caller fetches with its own client, so a client whose
 * credentials stopped working never breaks another's reads. */
export class Discovery {
  private readonly cache = new Map<string, Promise<ApiResourceList>>();

  /** The discovery of the API server at `server` (its URL). */
  static of(server: string): Discovery {
    let found = byServer.get(server);
    if (!found) {
      byServer.set(server, (found = new Discovery()));
      if (byServer.size > MAX_SERVERS) byServer.delete(byServer.keys().next().value ?? '');
    }
    return found;
  }

  async resource(apiVersion: string, kind: string, fetchList: Fetch): Promise<ResourceInfo> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    // A kind not in a list read earlier may be new (a CRD established since): read it again. A list read just now is
    // not read twice.
    const known = this.cache.has(base);
    const found =
      (await this.find(base, kind, false, fetchList)) ??
      (known ? await this.find(base, kind, true, fetchList) : undefined);
    if (!found) throw new KubeApiError(404, 'NotFound', `the server has no resource for kind ${kind} in ${apiVersion}`);
    return { base, plural: found.name, namespaced: found.namespaced };
  }

  /** A kind by API group in whatever version the server serves it (preferred version first), so that objects stored
   * under an older or newer version are still found; undefined when the group does not serve the kind at all. */
  async resourceOfGroupKind(
    group: string,
    kind: string,
    fetchGroup: (path: string) => Promise<ApiGroup>,
    fetchList: Fetch,
  ): Promise<(ResourceInfo & { apiVersion: string }) | undefined> {
    const info = await fetchGroup(`/apis/${group}`).catch((e: unknown) => {
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    });
    const versions = [info?.preferredVersion, ...(info?.versions ?? [])].flatMap((v) => (v ? [v.groupVersion] : []));
    for (const apiVersion of [...new Set(versions)]) {
      const found = await this.find(`/apis/${apiVersion}`, kind, true, fetchList);
      if (found) return { base: `/apis/${apiVersion}`, plural: found.name, namespaced: found.namespaced, apiVersion };
    }
    return undefined;
  }

  private async find(base: string, kind: string, refresh: boolean, fetchList: Fetch) {
    if (refresh || !this.cache.has(base)) {
      const list = fetchList(base);
      this.cache.set(base, list);
      list.catch(() => this.cache.delete(base));
    }
    const list = await this.cache.get(base)?.catch((e: unknown) => {
      if (e instanceof KubeApiError && e.status === 404) return { resources: [] };
      throw e;
    });
    return list?.resources.find((r) => r.kind === kind && !r.name.includes('/'));
  }
}
