import type { Manifest } from '../../shared/domain/manifest.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { parseModuleObjects, prepare, scopeFromCrds, type RuntimeObject } from './render.ts';

/** The module's objects as they will be applied: parsed, transformed, namespaces normalised against the runtime. */
export async function renderTarget(runtime: KubeClient, manifest: Manifest, yaml: string): Promise<RuntimeObject[] | { error: string }> {
  let parsed: RuntimeObject[];
  try {
    parsed = parseModuleObjects(yaml);
  } catch (error) {
    return { error: `rendering the module failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const fromCrds = scopeFromCrds(parsed);
  const kinds = [...new Set(parsed.map((o) => `${o.apiVersion}|${o.kind}`))];
  const scopes = new Map(await Promise.all(kinds.map(async (id) => {
    const [apiVersion = '', kind = ''] = id.split('|');
    const namespaced = await runtime.resource(apiVersion, kind).then((r) => r.namespaced, () => fromCrds(apiVersion, kind));
    return [id, namespaced] as const;
  })));
  const owner = { name: manifest.metadata.name, namespace: manifest.metadata.namespace ?? '' };
  return prepare(parsed, owner, (apiVersion, kind) => scopes.get(`${apiVersion}|${kind}`));
}
