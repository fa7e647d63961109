import { API_VERSION, LABEL, MANAGED_BY_RUNTIME, REMOTE_NAMESPACE } from '../domain/vocabulary.ts';
import { applyUnlessCurrent } from './apply-current.ts';
import type { KubeClient } from './client.ts';

/** Field manager upstream uses for the runtime's kyma-system namespace and the remote Kyma's metadata. */
export const SYNC_CONTEXT_MANAGER = 'kyma-sync-context';

/** The runtime's Kyma, the user's entry point on the runtime (always `kyma-system/default`, as upstream). */
export const REMOTE_KYMA = { apiVersion: API_VERSION, kind: 'Kyma', namespace: REMOTE_NAMESPACE, name: 'default' };

/**
 * Ensures `kyma-system` (or the Kyma's runtime namespace, docs/adr/0013) on the runtime with the upstream labels
 * (server-side apply, skipped when it is already so). Modules install into it; no module owns it, so it is never
 * pruned with one.
 */
export async function ensureRemoteNamespace(runtime: KubeClient, namespace = REMOTE_NAMESPACE): Promise<void> {
  await applyUnlessCurrent(runtime, {
    apiVersion: 'v1', kind: 'Namespace',
    metadata: { name: namespace, labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME, 'istio-injection': 'enabled', 'namespaces.warden.kyma-project.io/validate': 'enabled' } },
  }, SYNC_CONTEXT_MANAGER);
}
