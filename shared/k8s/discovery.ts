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

/** Kind → resource mapping per group version, cached; re-read once when a kind is missing (new CRDs). */
export class Discovery {
  private readonly cache = new Map<string, Promise<ApiResourceList>>();
  private readonly fetchList: (path: string) => Promise<ApiResourceList>;

  constructor(fetchList: (path: string) => Promise<ApiResourceList>) {
    this.fetchList = fetchList;
  }

  async resource(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const found = await this.find(base, kind, false) ?? await this.find(base, kind, true);
    if (!found) throw new KubeApiError(404, 'NotFound', `the server has no resource for kind ${kind} in ${apiVersion}`);
    return { base, plural: found.name, namespaced: found.namespaced };
  }

  /**
   * A kind by API group in whatever version the server serves it (preferred version first), so that objects stored
   * under an older or newer version are still found; undefined when the group does not serve the kind at all.
   */
  async resourceOfGroupKind(group: string, kind: string, fetchGroup: (path: string) => Promise<ApiGroup>): Promise<(ResourceInfo & { apiVersion: string }) | undefined> {
    const info = await fetchGroup(`/apis/${group}`).catch((e: unknown) => {
      if (e instanceof KubeApiError && e.status === 404) return undefined;
      throw e;
    });
    const versions = [info?.preferredVersion, ...(info?.versions ?? [])].flatMap((v) => (v ? [v.groupVersion] : []));
    for (const apiVersion of [...new Set(versions)]) {
      const found = await this.find(`/apis/${apiVersion}`, kind, true);
      if (found) return { base: `/apis/${apiVersion}`, plural: found.name, namespaced: found.namespaced, apiVersion };
    }
    return undefined;
  }

  private async find(base: string, kind: string, refresh: boolean) {
    if (refresh || !this.cache.has(base)) {
      const list = this.fetchList(base);
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
