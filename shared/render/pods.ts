import type { KubeClient } from '../kube/client.ts';
import { managerOf, type WorkloadPod } from './readiness.ts';
import type { RuntimeObject } from './render.ts';

interface StatefulSet extends RuntimeObject {
  spec?: { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
  status?: { readyReplicas?: number };
}

/** The pods readiness needs to look at (upstream §4.6): those of the module's StatefulSet while not all its replicas are
 * ready, by name (the first is ordinal 0); undefined when the manager is no StatefulSet or is ready. One LIST. */
export async function podsToJudge(cluster: KubeClient, applied: RuntimeObject[]): Promise<WorkloadPod[] | undefined> {
  const set = managerOf(applied) as StatefulSet | undefined;
  if (set?.kind !== 'StatefulSet' || (set.status?.readyReplicas ?? 0) === (set.spec?.replicas ?? 1)) return undefined;
  const labels = Object.entries(set.spec?.selector?.matchLabels ?? {});
  if (!labels.length) return undefined;
  const { items } = await cluster.list<WorkloadPod & RuntimeObject>('v1', 'Pod', { namespace: set.metadata.namespace ?? 'default', labelSelector: labels.map(([k, v]) => `${k}=${v}`).join(',') });
  return items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name, 'en', { numeric: true }));
}
