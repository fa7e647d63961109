// Custom resources that hold a CRD (issue 34): pruning a CRD makes the API server delete every custom resource of it,
// a user's too. An upgrade that drops a CRD therefore keeps it while any exist (the module is Warning naming them),
// unless the Kyma's module allows that CRD to be pruned with them (`allowCrdPrune`).
import type { SyncedResource } from '../core/manifest.ts';
import type { KubeClient } from '../kube/client.ts';
import { isNotFound } from '../kube/errors.ts';

interface Crd {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: {
    group?: string;
    names?: { kind?: string };
    versions?: { name: string; served?: boolean; storage?: boolean }[];
  };
}
interface Cr {
  metadata: { name: string; namespace?: string; deletionTimestamp?: string };
}

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

/** The custom resources of a CRD on the cluster (all namespaces) as `Kind namespace/name`, those already being
 * deleted left out; none when the CRD is gone or itself being deleted (its resources go with it anyway). */
export async function customResourcesOf(cluster: KubeClient, crdName: string): Promise<string[]> {
  const crd = await cluster.get<Crd>({ ...CRD, name: crdName });
  const version = crd?.spec?.versions?.find((v) => v.storage)?.name ?? crd?.spec?.versions?.find((v) => v.served)?.name;
  const kind = crd?.spec?.names?.kind;
  if (!crd || crd.metadata.deletionTimestamp || !crd.spec?.group || !kind || !version) return [];
  const items = await cluster.list<Cr>(`${crd.spec.group}/${version}`, kind).then(
    (l) => l.items,
    (error: unknown) => {
      if (isNotFound(error)) return [] as Cr[];
      throw error;
    },
  );
  return items
    .filter((i) => !i.metadata.deletionTimestamp)
    .map((i) => `${kind} ${i.metadata.namespace ? `${i.metadata.namespace}/` : ''}${i.metadata.name}`);
}

/** A CRD an upgrade keeps, and the custom resources that keep it. */
export interface HeldCrd {
  crd: SyncedResource;
  crs: string[];
}

/** PURE. The message of a kept CRD (at most 5 resources named, then how many more). */
export function heldCrdMessage(held: HeldCrd): string {
  const named = held.crs.slice(0, 5).join(', ') + (held.crs.length > 5 ? ` and ${held.crs.length - 5} more` : '');
  return (
    `CRD ${held.crd.name} is no longer shipped but not pruned: ${held.crs.length} custom resource${held.crs.length === 1 ? '' : 's'} still use${held.crs.length === 1 ? 's' : ''} it (${named}); ` +
    'it is pruned once they are gone, or allow it to go with them: spec.modules[].allowCrdPrune'
  );
}
