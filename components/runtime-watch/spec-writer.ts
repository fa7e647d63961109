/** A managedFields entry as the API server returns it (fieldsV1 is the set of fields the manager owns). */
interface ManagedFieldsEntry {
  manager?: string;
  fieldsV1?: Record<string, unknown>;
}

/** PURE. Whether an object's spec is still exactly as one of `ours` created it (ADR 28): its generation is 1 and every
 * managedFields entry owning part of `spec` is one of `ours`; any later spec change, even a removal, raises the
 * generation. */
export function specAsWeCreatedIt(object: unknown, ours: readonly string[]): boolean {
  const metadata = (object as { metadata?: { generation?: number; managedFields?: ManagedFieldsEntry[] } } | undefined)
    ?.metadata;
  if (metadata?.generation !== 1) return false;
  const writers = (metadata.managedFields ?? []).filter((e) => e.fieldsV1 !== undefined && 'f:spec' in e.fieldsV1);
  return writers.length > 0 && writers.every((e) => e.manager !== undefined && ours.includes(e.manager));
}
