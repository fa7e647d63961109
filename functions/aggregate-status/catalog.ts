import type { Kyma } from '../../shared/core/kyma.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../shared/core/templates.ts';
import { restrictionProblem, visibilityProblem } from '../../shared/core/visibility.ts';
import { LABEL, MANAGED_BY_RUNTIME, REMOTE_NAMESPACE } from '../../shared/core/vocabulary.ts';

export interface Catalog {
  templates: ModuleTemplate[];
  metas: ModuleReleaseMeta[];
}

/** PURE. Whether no lifecycle manager ever pushed a catalog to this Kyma's runtime (ADR 96): its status has no
 * `ModuleCatalog` condition, which the first push sets (upstream's too). Such a runtime holds no catalog copy and its
 * runtime Kyma no status but ours: the first push lists nothing, and its mirror writes without reading first. */
export const catalogNeverPushed = (kyma: Kyma): boolean =>
  !(kyma.status?.conditions ?? []).some((c) => c.type === 'ModuleCatalog');

const syncEnabled = (kyma: Kyma, t: ModuleTemplate) => !t.spec?.mandatory && !visibilityProblem(kyma, t);

/** PURE. The module catalog a Kyma may see (upstream §3.5): non-mandatory release metas (with a kymaSelector only the
 * config's `restricted` ones whose selector matches), their channels whose template exists and is visible
 * (beta/internal opt-in), and those templates; copies go in `namespace` (runtime scope), labelled managed-by=kyma. */
export function catalogFor(
  kyma: Kyma,
  templates: ModuleTemplate[],
  metas: ModuleReleaseMeta[],
  restricted: readonly string[],
  namespace = REMOTE_NAMESPACE,
): Catalog {
  const byName = new Map(templates.map((t) => [t.metadata.name, t]));
  const syncedMetas = metas.flatMap((meta) => {
    const spec = meta.spec;
    if (!spec || spec.mandatory || meta.metadata.deletionTimestamp) return [];
    if (restrictionProblem(kyma, spec.moduleName || meta.metadata.name, spec.kymaSelector, restricted)) return [];
    const channels = (spec.channels ?? []).filter((c) => {
      const t = byName.get(templateName(meta.metadata.name, c.version));
      return t !== undefined && syncEnabled(kyma, t);
    });
    return channels.length ? [copyOf(meta, { ...spec, channels }, namespace)] : [];
  });
  const referenced = new Set(
    syncedMetas.flatMap((m) => (m.spec?.channels ?? []).map((c) => templateName(m.metadata.name, c.version))),
  );
  const syncedTemplates = [...referenced].flatMap((name) => {
    const t = byName.get(name);
    return t ? [copyOf(t, t.spec, namespace)] : [];
  });
  return { templates: syncedTemplates, metas: syncedMetas };
}

function copyOf<T extends ModuleTemplate | ModuleReleaseMeta>(object: T, spec: T['spec'], namespace: string): T {
  const { name, labels, annotations } = object.metadata;
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    spec,
    metadata: {
      name,
      namespace,
      labels: { ...labels, [LABEL.managedBy]: MANAGED_BY_RUNTIME },
      ...(annotations ? { annotations } : {}),
    },
  } as unknown as T;
}
