import type { KubeClient } from '../../shared/kube/client.ts';
import { remoteKymaRef, type RuntimeScope } from '../../shared/core/runtime-scope.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { RUNTIME_CRDS, RUNTIME_KYMA_CRD } from './decide.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
const CATALOG_MANAGER = 'catalog-sync';
const KIND_OF: Record<string, string> = {
  [RUNTIME_CRDS[0] ?? '']: 'ModuleTemplate',
  [RUNTIME_CRDS[1] ?? '']: 'ModuleReleaseMeta',
  [RUNTIME_KYMA_CRD]: 'Kyma',
};

interface Listed {
  metadata: { name: string; namespace?: string; deletionTimestamp?: string; managedFields?: { manager?: string }[] };
  status?: { state?: string };
}

export interface RuntimeView {
  /** Lifecycle CRDs that exist and hold nothing but our own objects (deleting them deletes nobody else's data). */
  crds: string[];
  /** Catalog copies (field manager catalog-sync) still on the runtime. */
  copies: { kind: string; name: string }[];
  remoteKyma: boolean;
  /** The runtime Kyma's state, while it exists. */
  remoteKymaState?: string | undefined;
}

/** What the deletion chain may remove on the runtime: the runtime Kyma and the catalog copies in the Kyma's runtime
 * namespace; a CRD that still holds anything else (a user's, another Kyma's, ADR 13) is kept. */
export async function observeRuntime(runtime: KubeClient, scope: RuntimeScope): Promise<RuntimeView> {
  const view: RuntimeView = { crds: [], copies: [], remoteKyma: false };
  for (const name of [...RUNTIME_CRDS, RUNTIME_KYMA_CRD]) {
    // A CRD being deleted takes its objects with it: nothing more to do for it.
    const crd = await runtime.get<Listed>({ ...CRD, name });
    if (!crd || crd.metadata.deletionTimestamp) continue;
    const kind = KIND_OF[name] ?? '';
    const items = (await runtime.list<Listed>(API_VERSION, kind).catch(() => ({ items: [] as Listed[] }))).items;
    const ours = (i: Listed) =>
      i.metadata.namespace === scope.namespace &&
      (kind === 'Kyma'
        ? i.metadata.name === 'default'
        : Boolean(i.metadata.managedFields?.some((f) => f.manager === CATALOG_MANAGER)));
    if (kind === 'Kyma') {
      const remote = items.find((i) => ours(i) && !i.metadata.deletionTimestamp);
      view.remoteKyma = Boolean(remote);
      view.remoteKymaState = remote?.status?.state;
    } else view.copies.push(...items.filter(ours).map((i) => ({ kind, name: i.metadata.name })));
    if (items.every(ours)) view.crds.push(name);
  }
  return view;
}

export const deleteRuntimeCrd = (runtime: KubeClient, name: string) => runtime.delete({ ...CRD, name });
export const deleteRemoteKyma = (runtime: KubeClient, scope: RuntimeScope) => runtime.delete(remoteKymaRef(scope));
export async function deleteCopies(
  runtime: KubeClient,
  scope: RuntimeScope,
  copies: { kind: string; name: string }[],
): Promise<void> {
  for (const c of copies)
    await runtime.delete({ apiVersion: API_VERSION, kind: c.kind, namespace: scope.namespace, name: c.name });
}

/** The runtime Kyma's state Deleting (upstream's SetSkrKymaStateDeleting): the user on the runtime sees the deletion. */
export const setRemoteKymaDeleting = (runtime: KubeClient, scope: RuntimeScope) =>
  runtime.mergePatch(
    { ...remoteKymaRef(scope), apiVersion: API_VERSION },
    {
      status: {
        state: 'Deleting',
        lastOperation: {
          operation: 'the Kyma is being deleted: its modules are removed',
          lastUpdateTime: new Date().toISOString(),
        },
      },
    },
    'status',
  );
