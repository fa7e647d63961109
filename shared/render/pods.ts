import type { KubeClient } from '../kube/client.ts';
import { managerOf, type WorkloadPod } from './readiness.ts';
import type { RuntimeObject } from './render.ts';

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

interface StatefulSet extends RuntimeObject {
  spec?: { replicas?: number; selector?: LabelSelector };
  status?: { readyReplicas?: number };
}

/** PURE. A workload's selector in the API server's query syntax: matchLabels and matchExpressions (In, NotIn, Exists,
 * DoesNotExist); undefined when it selects nothing this can ask for (empty, or an operator the API server refuses). */
export function labelSelectorQuery(selector: LabelSelector | undefined): string | undefined {
  const terms = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const { key, operator, values = [] } of selector?.matchExpressions ?? []) {
    if (operator === 'In' || operator === 'NotIn') terms.push(`${key} ${operator.toLowerCase()} (${values.join(',')})`);
    else if (operator === 'Exists' || operator === 'DoesNotExist') terms.push(operator === 'Exists' ? key : `!${key}`);
    else return undefined;
  }
  return terms.length ? terms.join(',') : undefined;
}

/** The pods readiness needs to look at (upstream §4.6): those of the module's StatefulSet while not all its replicas are
 * ready, by name (the first is ordinal 0); undefined when the manager is no StatefulSet or is ready. One LIST. */
export async function podsToJudge(cluster: KubeClient, applied: RuntimeObject[]): Promise<WorkloadPod[] | undefined> {
  const set = managerOf(applied) as StatefulSet | undefined;
  if (set?.kind !== 'StatefulSet' || (set.status?.readyReplicas ?? 0) === (set.spec?.replicas ?? 1)) return undefined;
  const labelSelector = labelSelectorQuery(set.spec?.selector);
  if (!labelSelector) return undefined;
  const { items } = await cluster.list<WorkloadPod & RuntimeObject>('v1', 'Pod', {
    namespace: set.metadata.namespace ?? 'default',
    labelSelector,
  });
  return items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name, 'en', { numeric: true }));
}
