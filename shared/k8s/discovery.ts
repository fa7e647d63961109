import { KubeApiError } from './errors.ts';

export interface ResourceInfo {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  base: string;
  plural: string;
  namespaced: boolean;
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
