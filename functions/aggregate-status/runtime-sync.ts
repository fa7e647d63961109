import type { Kyma } from '../../shared/domain/kyma.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../shared/domain/templates.ts';
import type { RuntimeScope } from '../../shared/domain/runtime-scope.ts';
import { API_VERSION, FIELD_MANAGER, LABEL, MANAGED_BY_RUNTIME } from '../../shared/domain/vocabulary.ts';
import { applyUnlessCurrent } from '../../shared/k8s/apply-current.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { listAll } from '../../shared/k8s/list.ts';
import { ensureRemoteNamespace } from '../../shared/k8s/remote-namespace.ts';
import type { RuntimeClients } from '../../shared/k8s/runtime-clients.ts';
import { isRuntimeUnreachable } from '../../shared/runtime/errors.ts';
import { catalogFor } from './catalog.ts';
import type { RuntimeSync } from './decide.ts';

export const CATALOG_MANAGER = 'catalog-sync';
const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
const SYNCED_CRDS = ['kymas', 'moduletemplates', 'modulereleasemetas'].map((p) => `${p}.operator.kyma-project.io`);

/** CRDs, then the module catalog (and the image pull Secret when configured), on the Kyma's runtime; an unreachable runtime is reported, not thrown. */
export async function syncRuntime(kcp: KubeClient, runtimes: RuntimeClients, kyma: Kyma, pullSecret?: string): Promise<{ sync: RuntimeSync; runtime?: { client: KubeClient; scope: RuntimeScope }; pending?: string }> {
  const { name, namespace = '' } = kyma.metadata;
  const access = await runtimes.forKyma(namespace, name).catch((e: unknown) => ({ missing: e instanceof Error ? e.message : String(e) }));
  if ('missing' in access) return { sync: { unreachable: `runtime of Kyma ${name}: ${access.missing}` } };
  try {
    await syncCrds(kcp, access.client);
    const catalog = await syncCatalog(kcp, access.client, kyma, access.scope.namespace);
    if (pullSecret) await syncPullSecret(kcp, access.client, namespace, pullSecret, access.scope.namespace);
    return { runtime: access, sync: { crds: { ok: true, message: `${SYNCED_CRDS.length} CRDs synced to the runtime` }, catalog: { ok: true, message: catalog } } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isRuntimeUnreachable(error)) {
      runtimes.evict(namespace, name);
      return { sync: { unreachable: `runtime of Kyma ${name} unreachable: ${message}` } };
    }
    // The runtime answered but is not ready for it yet (a CRD still being established, 429, 5xx): retried soon.
    return { runtime: access, sync: { crds: { ok: false, message: `sync pending: ${message}` }, catalog: { ok: false, message: `sync pending: ${message}` } }, pending: message };
  }
}

interface RuntimeCrd { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string }; spec: object }

/** The lifecycle CRDs as the KCP has them, conversion None, label managed-by=kyma (server-side apply, skipped when already so). */
async function syncCrds(kcp: KubeClient, runtime: KubeClient): Promise<void> {
  for (const name of SYNCED_CRDS) {
    const crd = await kcp.get<{ kind?: string; spec?: Record<string, unknown> }>({ ...CRD, name });
    if (!crd?.spec) throw new Error(`CRD ${name} missing in the KCP`);
    const applied = await applyUnlessCurrent<RuntimeCrd>(runtime,
      { ...CRD, metadata: { name, labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME } }, spec: { ...crd.spec, conversion: { strategy: 'None' } } }, FIELD_MANAGER.lifecycleManager);
    // A CRD left terminating by an earlier Kyma's deletion: wait until it is gone, then it is created afresh.
    if (applied.metadata.deletionTimestamp) throw new Error(`CRD ${name} on the runtime is still being deleted`);
  }
}

interface Copy { kind?: string; metadata: { name: string; managedFields?: { manager?: string }[] } }

async function syncCatalog(kcp: KubeClient, runtime: KubeClient, kyma: Kyma, remoteNamespace: string): Promise<string> {
  const namespace = kyma.metadata.namespace ?? '';
  const templates = await listAll<ModuleTemplate>(kcp, API_VERSION, 'ModuleTemplate', { namespace });
  const metas = await listAll<ModuleReleaseMeta>(kcp, API_VERSION, 'ModuleReleaseMeta', { namespace });
  const catalog = catalogFor(kyma, templates, metas, remoteNamespace);
  for (const object of [...catalog.templates, ...catalog.metas]) await applyUnlessCurrent(runtime, object, CATALOG_MANAGER);
  const keep = new Set([...catalog.templates, ...catalog.metas].map((o) => `${o.kind}/${o.metadata.name}`));
  let removed = 0;
  for (const kind of ['ModuleTemplate', 'ModuleReleaseMeta']) {
    const copies = (await runtime.list<Copy>(API_VERSION, kind, { namespace: remoteNamespace })).items;
    for (const copy of copies.filter((c) => !keep.has(`${kind}/${c.metadata.name}`) && c.metadata.managedFields?.some((f) => f.manager === CATALOG_MANAGER))) {
      await runtime.delete({ apiVersion: API_VERSION, kind, namespace: remoteNamespace, name: copy.metadata.name });
      removed++;
    }
  }
  return `${catalog.templates.length} ModuleTemplates and ${catalog.metas.length} ModuleReleaseMetas synced${removed ? `, ${removed} copies removed` : ''}`;
}

/** The KCP's image pull Secret copied to the runtime's kyma-system or runtime namespace (data and type only). */
async function syncPullSecret(kcp: KubeClient, runtime: KubeClient, namespace: string, name: string, remoteNamespace: string): Promise<void> {
  const secret = await kcp.get<{ metadata: { name: string }; type?: string; data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  if (!secret) throw new Error(`image pull Secret ${namespace}/${name} not found in the KCP`);
  await ensureRemoteNamespace(runtime, remoteNamespace);
  await applyUnlessCurrent(runtime, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: remoteNamespace, labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME } },
    ...(secret.type ? { type: secret.type } : {}), data: secret.data ?? {} }, FIELD_MANAGER.lifecycleManager);
}
