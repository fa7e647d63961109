import type { KubeConfig, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readManifestDirectory } from './object-files.ts';
import { KubeClient } from '../../shared/kube/client.ts';

export const CRD_DIR = fileURLToPath(new URL('../../manifests/crds', import.meta.url));
const FIELD_MANAGER = 'lifecycle-manager';

/** The lifecycle CRDs (Kyma, ModuleTemplate, ModuleReleaseMeta, Manifest) as shipped in manifests/crds. */
export async function lifecycleCrds(): Promise<V1CustomResourceDefinition[]> {
  return (await readManifestDirectory(CRD_DIR)).map((doc) => doc.object as unknown as V1CustomResourceDefinition);
}

/** Applies the CRDs (server-side apply) and waits until each is Established. */
export async function installCrds(
  kc: KubeConfig,
  crds?: V1CustomResourceDefinition[],
  timeoutMs = 30_000,
): Promise<void> {
  const list = crds ?? (await lifecycleCrds());
  const client = await KubeClient.from(kc);
  for (const crd of list) await client.apply(crd, FIELD_MANAGER);
  const deadline = Date.now() + timeoutMs;
  for (const crd of list) {
    const name = crd.metadata?.name ?? '';
    const ref = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name };
    while (!isEstablished(await client.get<V1CustomResourceDefinition>(ref))) {
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established within ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }
}

function isEstablished(crd: V1CustomResourceDefinition | undefined): boolean {
  return crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
}
