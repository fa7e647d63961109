// Upstream's SKR watcher on a runtime (ADR 40): the first sync of a runtime in a function instance removes the objects
// labelled managed-by=kyma that upstream's `lifecycle-manager` applied of it, nothing else.
import { appliedBy } from '../../shared/core/current.ts';
import { LABEL, MANAGED_BY_RUNTIME, REMOTE_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';

/** The field manager upstream applies its watcher (and the lifecycle CRDs) with. */
const UPSTREAM_MANAGER = 'lifecycle-manager';
const ns = REMOTE_NAMESPACE;

/** Upstream's watcher objects, the webhook configuration first (writes stop calling it), its Deployment last: while
 * that is there, a later call finds the rest again (it is the one read to tell whether anything is left). */
export const UPSTREAM_WATCHER = [
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', name: 'skr-webhook' },
  { apiVersion: 'v1', kind: 'Service', namespace: ns, name: 'skr-webhook' },
  { apiVersion: 'v1', kind: 'Service', namespace: ns, name: 'skr-webhook-metrics' },
  { apiVersion: 'v1', kind: 'Secret', namespace: ns, name: 'skr-webhook-tls' },
  ...['seed-to-watcher', 'watcher-to-apiserver', 'metrics-to-watcher', 'watcher-to-dns'].map((n) => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    namespace: ns,
    name: `kyma-project.io--${n}`,
  })),
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', name: 'skr-webhook-priority' },
  { apiVersion: 'apps/v1', kind: 'Deployment', namespace: ns, name: 'skr-webhook' },
] as const;

type Found = {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    managedFields?: { manager?: string; operation?: string }[];
  };
};

/** PURE. Whether an object is upstream's watcher as upstream's manager left it (not a user's of the same name). */
export const isUpstreams = (o: Found | undefined): boolean =>
  Boolean(o && o.metadata.labels?.[LABEL.managedBy] === MANAGED_BY_RUNTIME && appliedBy(o, UPSTREAM_MANAGER));

/** Runtime API servers whose watcher this instance has looked at (one read each per instance). */
const checked = new Set<string>();

/** Removes upstream's watcher from the runtime once per instance; answers what it removed (`kind/name`). Never fails
 * the sync it is part of: a runtime identity not allowed to read or delete it leaves it (checked), any other failure
 * is tried again at the next sync. */
export async function removeUpstreamWatcher(runtime: KubeClient): Promise<string[]> {
  if (checked.has(runtime.server)) return [];
  return removeOnce(runtime).catch((error: unknown) => {
    if ([401, 403].includes((error as { status?: number }).status ?? 0)) checked.add(runtime.server);
    return [];
  });
}

async function removeOnce(runtime: KubeClient): Promise<string[]> {
  const sentinel = UPSTREAM_WATCHER.at(-1);
  if (!sentinel || !isUpstreams(await runtime.get<Found>(sentinel))) {
    checked.add(runtime.server);
    return [];
  }
  const removed: string[] = [];
  for (const ref of UPSTREAM_WATCHER) {
    const found = ref === sentinel ? true : isUpstreams(await runtime.get<Found>(ref));
    if (found && (await runtime.delete(ref))) removed.push(`${ref.kind}/${ref.name}`);
  }
  checked.add(runtime.server);
  return removed;
}
