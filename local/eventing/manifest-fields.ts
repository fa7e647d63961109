// Typed reads of fields of a YAML object, with the field path in every error. Pure.

export function asRecord(value: unknown, path: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`${path}: must be a map`);
  return value as Record<string, unknown>;
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new Error(`${path}: must be a string, got ${JSON.stringify(value)}`);
  return value;
}

export function requiredString(value: unknown, path: string): string {
  const text = optionalString(value, path);
  if (!text) throw new Error(`${path}: is required`);
  return text;
}

export function asList(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${path}: must be a list`);
  return value;
}
