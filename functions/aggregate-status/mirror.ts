import { canonicalJson } from '../../shared/domain/canonical.ts';
import type { Kyma, KymaStatus } from '../../shared/domain/kyma.ts';
import { API_VERSION, FIELD_MANAGER, REMOTE_NAMESPACE } from '../../shared/domain/vocabulary.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { remoteKymaRef, type RuntimeScope } from '../../shared/domain/runtime-scope.ts';


/** PURE. The KCP status as the runtime's Kyma shows it: template refs point at the catalog copies (in kyma-system
 * or the runtime namespace), Manifest refs (KCP-only objects) are left out. */
export function mirroredStatus(status: KymaStatus, namespace = REMOTE_NAMESPACE): KymaStatus {
  const modules = (status.modules ?? []).map((entry) => {
    const m = { ...entry };
    delete m.manifest;
    return m.template ? { ...m, template: { ...m.template, metadata: { ...m.template.metadata, namespace } } } : m;
  });
  return { ...status, modules };
}

/** Copies the status to the runtime's Kyma when it exists, is not being deleted and differs. */
export async function mirrorToRuntime(runtime: KubeClient, scope: RuntimeScope, status: KymaStatus): Promise<void> {
  const ref = remoteKymaRef(scope);
  const remote = await runtime.get<Kyma>(ref).catch(() => undefined);
  if (!remote || remote.metadata.deletionTimestamp) return;
  const mirrored = mirroredStatus(status, scope.namespace);
  if (canonicalJson(remote.status) === canonicalJson(mirrored)) return;
  await runtime.apply({ apiVersion: API_VERSION, kind: 'Kyma', metadata: { name: ref.name, namespace: ref.namespace }, status: mirrored }, FIELD_MANAGER.lifecycleManager, 'status');
}
