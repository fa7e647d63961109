// Where a Kyma's objects live on its runtime (ADR 13): by default `kyma-system`; with the kubeconfig Secret annotated
// `lifecycle.kyma-project.io/runtime-namespace: <ns>`, every namespaced object goes to `<ns>` and cluster-scoped ones
// are shared — applied alike by each Kyma, never owned, pruned or deleted by one of them. Pure.
import { API_VERSION, REMOTE_NAMESPACE } from './vocabulary.ts';

export const RUNTIME_NAMESPACE_ANNOTATION = 'lifecycle.kyma-project.io/runtime-namespace';

export interface RuntimeScope {
  /** The namespace of the runtime Kyma, the catalog copies, the module resources and the default CR. */
  readonly namespace: string;
  /** Other Kymas may use the same API server: cluster-scoped objects are shared, CRs elsewhere are not ours. */
  readonly shared: boolean;
}

export const OWN_RUNTIME: RuntimeScope = Object.freeze({ namespace: REMOTE_NAMESPACE, shared: false });

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The scope a kubeconfig Secret's annotations give; throws with a clear message on an invalid namespace. */
export function scopeOfSecret(
  secretName: string,
  annotations: Readonly<Record<string, string>> | undefined,
): RuntimeScope {
  const namespace = annotations?.[RUNTIME_NAMESPACE_ANNOTATION];
  if (namespace === undefined) return OWN_RUNTIME;
  if (!DNS_LABEL.test(namespace)) {
    throw new Error(
      `kubeconfig Secret ${secretName}: annotation ${RUNTIME_NAMESPACE_ANNOTATION} must be a namespace name (DNS-1123 label), got ${JSON.stringify(namespace)}`,
    );
  }
  return { namespace, shared: true };
}

/** The runtime Kyma of a scope (`kyma-system/default` for a runtime of its own). */
export const remoteKymaRef = (scope: RuntimeScope) => ({
  apiVersion: API_VERSION,
  kind: 'Kyma',
  namespace: scope.namespace,
  name: 'default',
});

/** The namespace a namespaced module object gets on the runtime: its own (none → `fallback`) on a runtime of its own,
 * the scope's namespace on a shared one. */
export function namespaceOnRuntime(scope: RuntimeScope, namespace: string | undefined, fallback: string): string {
  if (scope.shared) return scope.namespace;
  return namespace || fallback;
}
