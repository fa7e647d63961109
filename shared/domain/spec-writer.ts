/** A managedFields entry as the API server returns it (fieldsV1 is the set of fields the manager owns). */
interface ManagedFieldsEntry { manager?: string; time?: string; fieldsV1?: Record<string, unknown> }

/**
 * PURE. Whether the newest write of an object's spec was ours: among the managedFields entries that own a part of
 * `spec`, those with the newest time all belong to one of `ours`. An object with no such entry (no spec, or fields
 * stripped) is never taken as ours. Lets the runtime watch tell a user's edit of a runtime Kyma from the creation of
 * that Kyma by resolve-template (ADR 28).
 */
export function specLastWrittenBy(object: unknown, ours: readonly string[]): boolean {
  const entries = ((object as { metadata?: { managedFields?: ManagedFieldsEntry[] } } | undefined)?.metadata?.managedFields ?? [])
    .filter((e) => e.fieldsV1 !== undefined && 'f:spec' in e.fieldsV1);
  if (entries.length === 0) return false;
  const newest = entries.reduce((max, e) => ((e.time ?? '') > max ? e.time ?? '' : max), '');
  return entries.filter((e) => (e.time ?? '') === newest).every((e) => e.manager !== undefined && ours.includes(e.manager));
}
