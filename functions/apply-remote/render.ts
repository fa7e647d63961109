import { parseAllDocuments } from 'yaml';
import type { SyncedResource } from '../../shared/domain/manifest.ts';
import { ANNOTATION, DISCLAIMER, LABEL, MANAGED_BY_RUNTIME } from '../../shared/domain/vocabulary.ts';

/** A module resource as applied to the runtime. */
export interface RuntimeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

const MAX_ALIASES = 100;
const MAX_DOCUMENTS = 5000;

/** PURE. The objects of a raw-manifest YAML stream; documents without apiVersion/kind/name are an error;
 * duplicates (same namespace/name/apiVersion/kind) keep the first. YAML alias bombs are refused. */
export function parseModuleObjects(yaml: string): RuntimeObject[] {
  const docs = parseAllDocuments(yaml, { uniqueKeys: true });
  if (!Array.isArray(docs)) throw new Error('raw manifest is not a YAML stream');
  if (docs.length > MAX_DOCUMENTS) throw new Error(`raw manifest has ${docs.length} documents; at most ${MAX_DOCUMENTS} are accepted`);
  const seen = new Set<string>();
  const objects: RuntimeObject[] = [];
  docs.forEach((doc, i) => {
    if (doc.errors[0]) throw new Error(`raw manifest document ${i + 1} is not valid YAML: ${doc.errors[0].message}`);
    const value = doc.toJS({ maxAliasCount: MAX_ALIASES }) as Partial<RuntimeObject> | null;
    if (value === null || value === undefined) return;
    if (typeof value !== 'object' || !value.apiVersion || !value.kind || !value.metadata?.name) {
      throw new Error(`raw manifest document ${i + 1} lacks apiVersion, kind or metadata.name`);
    }
    const id = `${value.metadata.namespace ?? ''}/${value.metadata.name}/${value.apiVersion}/${value.kind}`;
    if (!seen.has(id)) objects.push(value as RuntimeObject);
    seen.add(id);
  });
  return objects;
}

/** Which kinds are namespaced: from the runtime's discovery, else from CRDs in the same manifest. */
export type ScopeOf = (apiVersion: string, kind: string) => boolean | undefined;

export function scopeFromCrds(objects: RuntimeObject[]): ScopeOf {
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition') as (RuntimeObject & {
    spec?: { group?: string; scope?: string; names?: { kind?: string }; versions?: { name: string }[] };
  })[];
  return (apiVersion, kind) => {
    const crd = crds.find((c) => c.spec?.names?.kind === kind && c.spec.versions?.some((v) => `${c.spec?.group}/${v.name}` === apiVersion));
    return crd ? crd.spec?.scope !== 'Cluster' : undefined;
  };
}

/** PURE. The upstream transforms: managed-by/owned-by, app.kubernetes.io labels, disclaimer; namespaces
 * normalised (namespaced without one → default; cluster-scoped → none; unknown kinds left as they are). */
export function prepare(objects: RuntimeObject[], manifest: { name: string; namespace: string }, scopeOf: ScopeOf): RuntimeObject[] {
  return objects.map((object) => {
    const copy = structuredClone(object);
    copy.metadata.labels = { ...copy.metadata.labels, [LABEL.managedBy]: MANAGED_BY_RUNTIME, [LABEL.appComponent]: manifest.name, [LABEL.appPartOf]: 'Kyma' };
    copy.metadata.annotations = { ...copy.metadata.annotations, [ANNOTATION.ownedBy]: `${manifest.namespace}/${manifest.name}`, [ANNOTATION.disclaimer]: DISCLAIMER };
    const namespaced = scopeOf(copy.apiVersion, copy.kind);
    if (namespaced === true && !copy.metadata.namespace) copy.metadata.namespace = 'default';
    if (namespaced === false) delete copy.metadata.namespace;
    return copy;
  });
}

export function syncedOf(object: RuntimeObject): SyncedResource {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') as [string, string] : ['', object.apiVersion];
  return { group, version, kind: object.kind, name: object.metadata.name, namespace: object.metadata.namespace ?? '' };
}

export const apiVersionOf = (r: SyncedResource) => (r.group ? `${r.group}/${r.version}` : r.version);
