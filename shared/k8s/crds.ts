import { ApiextensionsV1Api, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { readObjectsFromDir, serverSideApply } from './apply.ts';

export const CRD_DIR = fileURLToPath(new URL('../../manifests/crds', import.meta.url));
const FIELD_MANAGER = 'lifecycle-manager';

/** The lifecycle CRDs (Kyma, ModuleTemplate, ModuleReleaseMeta, Manifest) as shipped in manifests/crds. */
export async function lifecycleCrds(): Promise<V1CustomResourceDefinition[]> {
  return (await readObjectsFromDir(CRD_DIR)) as V1CustomResourceDefinition[];
}

/** Applies the CRDs (server-side apply) and waits until each is Established. */
export async function installCrds(kc: KubeConfig, crds?: V1CustomResourceDefinition[], timeoutMs = 30_000):
Promise<void> {
  const list = crds ?? await lifecycleCrds();
  for (const crd of list) await serverSideApply(kc, crd, FIELD_MANAGER);
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const deadline = Date.now() + timeoutMs;
  for (const crd of list) {
    const name = crd.metadata?.name ?? '';
    while (!isEstablished(await api.readCustomResourceDefinition({ name }))) {
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established within ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  }
}

function isEstablished(crd: V1CustomResourceDefinition): boolean {
  return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
}
