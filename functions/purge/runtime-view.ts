import type { KubeClient } from '../../shared/k8s/client.ts';
import { API_VERSION, REMOTE_NAMESPACE } from '../../shared/domain/vocabulary.ts';
import { RUNTIME_CRDS, RUNTIME_KYMA_CRD } from './decide.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

/** Which lifecycle CRDs and whether the remote Kyma (kyma-system/default) exist on the runtime. */
export async function observeRuntime(runtime: KubeClient): Promise<{ crds: string[]; remoteKyma: boolean }> {
  const names = [...RUNTIME_CRDS, RUNTIME_KYMA_CRD];
  const present = await Promise.all(names.map(async (name) => (await runtime.get({ ...CRD, name })) ? [name] : []));
  const crds = present.flat();
  const remoteKyma = crds.includes(RUNTIME_KYMA_CRD)
    && Boolean(await runtime.get({ apiVersion: API_VERSION, kind: 'Kyma', namespace: REMOTE_NAMESPACE, name: 'default' }).catch(() => undefined));
  return { crds, remoteKyma };
}

export const deleteRuntimeCrd = (runtime: KubeClient, name: string) => runtime.delete({ ...CRD, name });
export const deleteRemoteKyma = (runtime: KubeClient) => runtime.delete({ apiVersion: API_VERSION, kind: 'Kyma', namespace: REMOTE_NAMESPACE, name: 'default' });
