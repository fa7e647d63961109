import type { Manifest } from '../../shared/core/manifest.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { localizeImages, withPullSecret } from './images.ts';
import { parseModuleObjects, prepareForCluster, type RuntimeObject } from '../../shared/render/render.ts';

/** The module's objects as they will be applied: parsed, transformed (labels, localized images, pull Secret),
 * namespaces normalised against the runtime. */
export async function renderTarget(runtime: KubeClient, manifest: Manifest, yaml: string, pullSecret: string | undefined, scope: RuntimeScope): Promise<RuntimeObject[] | { error: string }> {
  let parsed: RuntimeObject[];
  try {
    parsed = parseModuleObjects(yaml);
  } catch (error) {
    return { error: `rendering the module failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const owner = { name: manifest.metadata.name, namespace: manifest.metadata.namespace ?? '' };
  const objects = localizeImages(await prepareForCluster(runtime, parsed, owner, scope), manifest.spec?.localizedImages ?? []);
  if (!pullSecret) return objects;
  const pulling = withPullSecret(objects, pullSecret, manifest.spec?.manager);
  return 'error' in pulling ? { error: `rendering the module failed: ${pulling.error}` } : pulling;
}
