import type { KubeClient } from '../../shared/kube/client.ts';
import { LABEL, MANAGED_BY_RUNTIME } from '../../shared/core/vocabulary.ts';

/** The image pull Secret as a runtime gets it: data and type only, labelled managed-by=kyma. */
export interface PullSecret {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  type?: string;
  data: Record<string, string>;
}

/** The KCP's image pull Secret as copied to the runtime's kyma-system or runtime namespace (data and type only). */
export async function pullSecretCopy(
  kcp: KubeClient,
  namespace: string,
  name: string,
  remoteNamespace: string,
): Promise<PullSecret> {
  const secret = await kcp.get<{ metadata: { name: string }; type?: string; data?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace,
    name,
  });
  if (!secret) throw new Error(`image pull Secret ${namespace}/${name} not found in the KCP`);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: remoteNamespace, labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME } },
    ...(secret.type ? { type: secret.type } : {}),
    data: secret.data ?? {},
  };
}
