import type { Manifest } from '../core/manifest.ts';
import type { RuntimeScope } from '../core/runtime-scope.ts';
import type { KubeClient } from '../kube/client.ts';
import { localizeImages, withPullSecret } from './images.ts';
import { injectsKcpData, kcpSecretsWanted, withKcpData, type KcpSecret } from './kcp-data.ts';
import { parseModuleObjects, prepareForCluster, type RuntimeObject } from './render.ts';

/** Where a call reads the KCP Secrets the restricted `deployer` module asks data from (kcp-data.ts): the KCP
 * (apply-remote's client), its namespace, the restricted modules (LIFECYCLE_RESTRICTED_MODULES). */
export interface KcpSecrets {
  kcp: KubeClient;
  namespace: string;
  restrictedModules: readonly string[];
}

/** Parsed raw manifests by their text, the most recent first: a fleet installs the same few module versions
 * thousands of times, and parsing YAML costs ten times a copy. */
const parsedByText = new Map<string, RuntimeObject[]>();
const PARSED_KEPT = 64;

/** The objects of a raw manifest, parsed once per text in this process; each call gets its own copy. */
export function moduleObjectsOf(yaml: string): RuntimeObject[] {
  let parsed = parsedByText.get(yaml);
  if (parsed) parsedByText.delete(yaml);
  else parsed = parseModuleObjects(yaml);
  parsedByText.set(yaml, parsed);
  if (parsedByText.size > PARSED_KEPT) parsedByText.delete(parsedByText.keys().next().value ?? '');
  return structuredClone(parsed);
}

/** The module's objects as they will be applied: parsed, transformed (labels, localized images, KCP Secret data of
 * the restricted `deployer`, pull Secret), namespaces normalised against the runtime. Without `kcpSecrets` (the plan)
 * nothing is injected. */
export async function renderTarget(
  runtime: KubeClient,
  manifest: Manifest,
  yaml: string,
  pullSecret: string | undefined,
  scope: RuntimeScope,
  kcpSecrets?: KcpSecrets,
): Promise<RuntimeObject[] | { error: string }> {
  let parsed: RuntimeObject[];
  try {
    parsed = moduleObjectsOf(yaml);
  } catch (error) {
    return { error: `rendering the module failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const owner = { name: manifest.metadata.name, namespace: manifest.metadata.namespace ?? '' };
  const localized = localizeImages(
    await prepareForCluster(runtime, parsed, owner, scope),
    manifest.spec?.localizedImages ?? [],
  );
  const objects =
    kcpSecrets && injectsKcpData(manifest, kcpSecrets.restrictedModules)
      ? withKcpData(localized, await readKcpSecrets(kcpSecrets, kcpSecretsWanted(localized)), kcpSecrets.namespace)
      : localized;
  if ('error' in objects) return { error: `rendering the module failed: ${objects.error}` };
  if (!pullSecret) return objects;
  const pulling = withPullSecret(objects, pullSecret, manifest.spec?.manager);
  return 'error' in pulling ? { error: `rendering the module failed: ${pulling.error}` } : pulling;
}

/** The KCP Secrets of these names, each read live by name (ADR 15: cached reads serve only kubeconfig Secrets); one
 * that cannot be read is its error, without the data the API server never sends in one. */
async function readKcpSecrets(
  source: KcpSecrets,
  names: readonly string[],
): Promise<Map<string, KcpSecret | { error: string }>> {
  const read = await Promise.all(
    names.map(async (name) => {
      const secret = await source.kcp
        .get<KcpSecret & { apiVersion?: string }>({
          apiVersion: 'v1',
          kind: 'Secret',
          namespace: source.namespace,
          name,
        })
        .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
      return secret ? [[name, secret] as const] : [];
    }),
  );
  return new Map(read.flat());
}
