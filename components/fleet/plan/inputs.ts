// What a plan reads from the KCP and the registry, once per plan: the namespace's ModuleReleaseMetas, ModuleTemplates,
// the Kymas using a changed module and their Manifests (LISTs), and each descriptor resolution will ask for (cached).
import type { ArtifactLookup } from '../../../shared/core/descriptors.ts';
import type { Kyma } from '../../../shared/core/kyma.ts';
import type { Manifest } from '../../../shared/core/manifest.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../../shared/core/templates.ts';
import { API_VERSION, LABEL } from '../../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../../shared/kube/client.ts';
import { listAll } from '../../../shared/kube/list.ts';
import type { ModuleArtifacts } from '../../../shared/oci/module-artifacts.ts';
import { TransientError } from '../../../shared/host/errors.ts';
import { wantedModules } from '../../../shared/core/resolution.ts';
import { mapBounded } from './bounded.ts';
import type { Catalog } from './change.ts';
import { asResolved, neededArtifacts } from './resolution.ts';

export async function readCatalog(kcp: KubeClient, namespace: string): Promise<Catalog> {
  const [releaseMetas, templates] = await Promise.all([
    listAll<ModuleReleaseMeta>(kcp, API_VERSION, 'ModuleReleaseMeta', { namespace }),
    listAll<ModuleTemplate>(kcp, API_VERSION, 'ModuleTemplate', { namespace }),
  ]);
  return { releaseMetas, templates };
}

/** Kymas (not being deleted) that want one of `modules`, as resolution saw them; `names` narrows them (--kyma). */
export async function kymasUsing(
  kcp: KubeClient,
  namespace: string,
  modules: readonly string[],
  names: readonly string[],
): Promise<Kyma[]> {
  const all = names.length
    ? (
        await Promise.all(
          names.map((name) => kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace, name })),
        )
      ).filter((k): k is Kyma => k !== undefined)
    : await listAll<Kyma>(kcp, API_VERSION, 'Kyma', { namespace }, 500);
  return all
    .filter((k) => !k.metadata.deletionTimestamp)
    .map(asResolved)
    .filter((k) => wantedModules(k).some((m) => modules.includes(m.name)));
}

/** The Manifests of the namespace (one paged LIST), by `<kyma>/<module>`. */
export async function manifestsByModule(kcp: KubeClient, namespace: string): Promise<Map<string, Manifest>> {
  const manifests = await listAll<Manifest>(kcp, API_VERSION, 'Manifest', { namespace }, 500);
  return new Map(
    manifests.map((m) => [
      `${m.metadata.labels?.[LABEL.kymaName] ?? ''}/${m.metadata.labels?.[LABEL.moduleName] ?? ''}`,
      m,
    ]),
  );
}

/** Every descriptor lookup resolution makes for these Kymas against these catalogs, read `limit` at a time; a registry
 * outage is an answer (as observe.ts has it), not a failure of the plan. */
export async function readArtifacts(
  artifacts: ModuleArtifacts,
  kymas: readonly Kyma[],
  catalogs: readonly Catalog[],
  limit: number,
): Promise<Map<string, ArtifactLookup>> {
  const wanted = new Map<string, { componentName: string; version: string; template: ModuleTemplate }>();
  for (const catalog of catalogs) {
    for (const kyma of kymas) {
      for (const need of neededArtifacts(kyma, catalog)) wanted.set(`${need.componentName}:${need.version}`, need);
    }
  }
  const found = await mapBounded(
    [...wanted],
    limit,
    async ([key, need]) => [key, await lookupOrOutage(artifacts, need)] as const,
  );
  return new Map(found);
}

async function lookupOrOutage(
  artifacts: ModuleArtifacts,
  need: { componentName: string; version: string; template: ModuleTemplate },
): Promise<ArtifactLookup> {
  try {
    return await artifacts.lookup(need.componentName, need.version, need.template);
  } catch (error) {
    if (!(error instanceof TransientError)) throw error;
    return { error: error.message, transient: true };
  }
}
