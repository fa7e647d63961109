// The module catalog's copies on a runtime (upstream's ModuleTemplate and ModuleReleaseMeta sync): applied where they
// differ from what is listed there, ours no longer in the catalog removed.
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { mapAtMost } from '../../shared/core/at-most.ts';
import { applyUnlessCurrent } from '../../shared/kube/apply-current.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { markStep } from '../../shared/host/steps.ts';
import type { Catalog } from './catalog.ts';

export const CATALOG_MANAGER = 'catalog-sync';

interface Copy {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; managedFields?: { manager?: string }[] };
}
const CATALOG_KINDS = ['ModuleTemplate', 'ModuleReleaseMeta'];

/** The catalog copies applied where they differ from what is there (one LIST per kind; none where no catalog was ever
 * pushed, ADR 96), copies of ours no longer in it removed; answers how many were. The namespace is not read: the push
 * comes after resolve-template created the runtime Kyma in it (ADR 78); a namespace gone since answers 404. */
export async function pushCatalog(
  runtime: KubeClient,
  catalog: Catalog,
  remoteNamespace: string,
  freshness: Freshness | 'unlisted',
): Promise<number> {
  markStep('module_catalog_sync');
  const live = new Map<string, Copy>();
  const lists =
    freshness === 'unlisted'
      ? []
      : await Promise.all(
          CATALOG_KINDS.map(async (kind) => ({
            kind,
            copies: (await runtime.list<Copy>(API_VERSION, kind, { namespace: remoteNamespace, freshness })).items,
          })),
        );
  for (const { kind, copies } of lists)
    for (const copy of copies) live.set(`${kind}/${copy.metadata.name}`, { ...copy, apiVersion: API_VERSION, kind });
  const desired = [...catalog.templates, ...catalog.metas];
  // Eight copies at a time (ADR 54), each one request or none.
  await mapAtMost(desired, 8, (object) =>
    applyUnlessCurrent<Copy>(
      runtime,
      object as Copy,
      CATALOG_MANAGER,
      live.get(`${object.kind}/${object.metadata.name}`) ?? null,
    ),
  );
  const keep = new Set(desired.map((o) => `${o.kind}/${o.metadata.name}`));
  let removed = 0;
  for (const [key, copy] of live) {
    if (keep.has(key) || !copy.metadata.managedFields?.some((f) => f.manager === CATALOG_MANAGER)) continue;
    const { name } = copy.metadata;
    await runtime.delete({ apiVersion: API_VERSION, kind: copy.kind ?? '', namespace: remoteNamespace, name });
    removed++;
  }
  return removed;
}
