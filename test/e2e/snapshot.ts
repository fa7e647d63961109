import type { KubeClient } from '../../shared/kube/client.ts';
import { countRequests, requestTally, WRITE_VERBS } from '../../shared/kube/request-tally.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { sampleGroup } from '../../tools/module/sample.ts';

const KCP_KINDS: [string, string][] = [
  [API_VERSION, 'Kyma'],
  [API_VERSION, 'Manifest'],
  [API_VERSION, 'ModuleTemplate'],
  [API_VERSION, 'ModuleReleaseMeta'],
  ['v1', 'Secret'],
];
const RUNTIME_KINDS: [string, string][] = [
  ['apps/v1', 'Deployment'],
  ['v1', 'ConfigMap'],
  ['v1', 'ServiceAccount'],
  ['v1', 'Namespace'],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
  [`${sampleGroup('sample')}/v1alpha1`, 'Sample'],
];

/** resourceVersion of every object of the kinds this project writes: any write anywhere changes the snapshot. */
export async function writeSnapshot(kcp: KubeClient, runtimes: KubeClient[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const add = async (cluster: string, client: KubeClient, [apiVersion, kind]: [string, string]) => {
    const list = await client
      .list<{ metadata: { name: string; namespace?: string; resourceVersion?: string } }>(apiVersion, kind)
      .catch(() => ({ items: [] }));
    for (const o of list.items)
      out[`${cluster} ${kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`] = o.metadata.resourceVersion ?? '';
  };
  for (const kind of KCP_KINDS) await add('kcp', kcp, kind);
  for (const [i, runtime] of runtimes.entries())
    for (const kind of RUNTIME_KINDS) await add(`runtime-${i + 1}`, runtime, kind);
  return out;
}

/** Every write request the functions send while `work` runs, as `<function> <verb> <resource>` — counted where they
 * leave the client (shared/kube/request-tally.ts), so a write that changes nothing (an identical apply) counts too,
 * which a resourceVersion snapshot cannot see. */
export async function writeRequestsDuring(work: () => Promise<void>): Promise<string[]> {
  countRequests(true);
  try {
    await work();
    return requestTally()
      .filter((r) => r.caller !== 'other' && WRITE_VERBS.has(r.verb))
      .map((r) => `${r.caller} ${r.verb} ${r.resource} ×${r.count}`);
  } finally {
    countRequests(false);
  }
}
