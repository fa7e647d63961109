import { parseAllDocuments } from 'yaml';
import type { Manifest, SyncedResource } from '../core/manifest.ts';
import type { KubeClient } from '../kube/client.ts';
import { namespaceOnRuntime, OWN_RUNTIME, type RuntimeScope } from '../core/runtime-scope.ts';
import { ANNOTATION, DISCLAIMER, LABEL, MANAGED_BY_RUNTIME } from '../core/vocabulary.ts';

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
  if (docs.length > MAX_DOCUMENTS)
    throw new Error(`raw manifest has ${docs.length} documents; at most ${MAX_DOCUMENTS} are accepted`);
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
    const crd = crds.find(
      (c) => c.spec?.names?.kind === kind && c.spec.versions?.some((v) => `${c.spec?.group}/${v.name}` === apiVersion),
    );
    return crd ? crd.spec?.scope !== 'Cluster' : undefined;
  };
}

/** PURE. The upstream transforms (managed-by/owned-by, app.kubernetes.io labels, disclaimer), namespaces normalised. On
 * a shared runtime namespaced objects go to the Kyma's runtime namespace, and cluster-scoped ones name no Manifest
 * (owned-by, component), so they do not flap between owners (ADR 13). */
export function prepare(
  objects: RuntimeObject[],
  manifest: { name: string; namespace: string },
  scopeOf: ScopeOf,
  runtime: RuntimeScope = OWN_RUNTIME,
): RuntimeObject[] {
  return objects.map((object) => {
    const copy = structuredClone(object);
    const namespaced = scopeOf(copy.apiVersion, copy.kind);
    const shared = runtime.shared && namespaced === false;
    copy.metadata.labels = {
      ...copy.metadata.labels,
      [LABEL.managedBy]: MANAGED_BY_RUNTIME,
      ...(shared ? {} : { [LABEL.appComponent]: manifest.name }),
      [LABEL.appPartOf]: 'Kyma',
    };
    copy.metadata.annotations = {
      ...copy.metadata.annotations,
      ...(shared ? {} : { [ANNOTATION.ownedBy]: `${manifest.namespace}/${manifest.name}` }),
      [ANNOTATION.disclaimer]: DISCLAIMER,
    };
    if (namespaced === true) copy.metadata.namespace = namespaceOnRuntime(runtime, copy.metadata.namespace, 'default');
    if (namespaced === undefined && copy.metadata.namespace && runtime.shared)
      copy.metadata.namespace = runtime.namespace;
    if (namespaced === false) delete copy.metadata.namespace;
    return copy;
  });
}

/** `prepare` with each kind's scope from the cluster's discovery, else from CRDs among the objects (not yet served). */
export async function prepareForCluster(
  cluster: KubeClient,
  objects: RuntimeObject[],
  owner: { name: string; namespace: string },
  runtime: RuntimeScope = OWN_RUNTIME,
): Promise<RuntimeObject[]> {
  const fromCrds = scopeFromCrds(objects);
  const kinds = [...new Set(objects.map((o) => `${o.apiVersion}|${o.kind}`))];
  const scopes = new Map(
    await Promise.all(
      kinds.map(async (id) => {
        const [apiVersion = '', kind = ''] = id.split('|');
        const namespaced = await cluster.resource(apiVersion, kind).then(
          (r) => r.namespaced,
          () => fromCrds(apiVersion, kind),
        );
        return [id, namespaced] as const;
      }),
    ),
  );
  return prepare(objects, owner, (apiVersion, kind) => scopes.get(`${apiVersion}|${kind}`), runtime);
}

/** PURE. The Manifest as its runtime sees it: on a shared runtime a namespaced default CR lives in the runtime namespace. */
export function manifestOnRuntime(manifest: Manifest, runtime: RuntimeScope): Manifest {
  const cr = manifest.spec?.resource as { metadata?: { namespace?: string } } | null | undefined;
  if (!runtime.shared || !cr?.metadata?.namespace || !manifest.spec) return manifest;
  return {
    ...manifest,
    spec: {
      ...manifest.spec,
      resource: { ...cr, metadata: { ...cr.metadata, namespace: runtime.namespace } } as never,
    },
  };
}

export function syncedOf(object: RuntimeObject): SyncedResource {
  const [group, version] = object.apiVersion.includes('/')
    ? (object.apiVersion.split('/') as [string, string])
    : ['', object.apiVersion];
  return { group, version, kind: object.kind, name: object.metadata.name, namespace: object.metadata.namespace ?? '' };
}

export const apiVersionOf = (r: SyncedResource) => (r.group ? `${r.group}/${r.version}` : r.version);

/** The reference of a synced resource, to read or delete it. */
export const refOfSynced = (r: SyncedResource) => ({
  apiVersion: apiVersionOf(r),
  kind: r.kind,
  name: r.name,
  namespace: r.namespace || undefined,
});
