// Unknown-field detection against a CRD's OpenAPI schema, stricter than the API server: Knative's CRDs mark parts of
// their specs `x-kubernetes-preserve-unknown-fields` (their webhooks check those), so a misspelt field there would
// pass a dry-run. Here every object whose schema lists its properties must use only those. Pure.

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
}

interface Crd {
  kind?: string;
  spec?: {
    group?: string;
    names?: { kind?: string };
    versions?: { name: string; schema?: { openAPIV3Schema?: Schema } }[];
  };
}

/** The schema a CRD among `crds` declares for apiVersion/kind, if any. */
export function schemaOf(crds: readonly Crd[], apiVersion: string, kind: string): Schema | undefined {
  const [group, version] = apiVersion.split('/');
  const crd = crds.find((c) => c.spec?.group === group && c.spec?.names?.kind === kind);
  return crd?.spec?.versions?.find((v) => v.name === version)?.schema?.openAPIV3Schema;
}

const ROOT_FIELDS = ['apiVersion', 'kind', 'metadata', 'status'];

/** Paths of fields in `value` that `schema` does not declare (apiVersion, kind, metadata and status are not checked). */
export function unknownFields(schema: Schema | undefined, value: unknown, path = ''): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => unknownFields(schema.items, item, `${path}[${i}]`));
  const entries = Object.entries(value as Record<string, unknown>);
  if (schema.properties) {
    return entries.flatMap(([key, v]) => {
      const at = path ? `${path}.${key}` : key;
      if (!path && ROOT_FIELDS.includes(key)) return [];
      const declared = schema.properties?.[key];
      if (declared) return unknownFields(declared, v, at);
      return typeof schema.additionalProperties === 'object' ? unknownFields(schema.additionalProperties, v, at) : [at];
    });
  }
  if (typeof schema.additionalProperties === 'object') {
    const extra = schema.additionalProperties;
    return entries.flatMap(([key, v]) => unknownFields(extra, v, `${path}.${key}`));
  }
  return [];
}
