// The resourceVersion of every object the fleet's Kymas own or share, on the KCP and every runtime: taken before and
// after a quiet window, a difference means something flapped (or was rewritten needlessly).
import { API_VERSION, KCP_NAMESPACE } from '../shared/core/vocabulary.ts';
import type { KubeClient } from '../shared/kube/client.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { eachPage } from '../shared/kube/list.ts';
import { sampleGroup, sampleKind } from '../tools/module/sample.ts';

type Listed = KubeObject & { metadata: { name: string; namespace?: string; resourceVersion?: string } };

const RUNTIME_KINDS: [string, string][] = [
  ['apps/v1', 'Deployment'],
  ['v1', 'ConfigMap'],
  ['v1', 'ServiceAccount'],
  ['v1', 'Secret'],
  ['v1', 'Namespace'],
  [API_VERSION, 'Kyma'],
  [API_VERSION, 'ModuleTemplate'],
  [API_VERSION, 'ModuleReleaseMeta'],
  ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
];

export async function resourceVersions(
  kcp: KubeClient,
  runtimes: KubeClient[],
  modules: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // Page by page: at 5,000 Kymas the Manifests and catalog copies in full are hundreds of MiB.
  const record = (where: string, kind: string) => (items: Listed[]) => {
    for (const i of items)
      out.set(
        `${where} ${kind} ${i.metadata.namespace ? `${i.metadata.namespace}/` : ''}${i.metadata.name}`,
        i.metadata.resourceVersion ?? '',
      );
  };
  for (const kind of ['Kyma', 'Manifest'])
    await eachPage<Listed>(kcp, API_VERSION, kind, { namespace: KCP_NAMESPACE }, record('kcp', kind));
  const kinds = [
    ...RUNTIME_KINDS,
    ...modules.map((m): [string, string] => [`${sampleGroup(m)}/v1alpha1`, sampleKind(m)]),
  ];
  for (const [i, runtime] of runtimes.entries()) {
    for (const [apiVersion, kind] of kinds) {
      await eachPage<Listed>(runtime, apiVersion, kind, {}, record(`runtime-${i + 1}`, kind)).catch(() => undefined);
    }
  }
  return out;
}

/** Keys whose resourceVersion changed or that appeared/disappeared between two snapshots. Pure. */
export function changedBetween(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}
