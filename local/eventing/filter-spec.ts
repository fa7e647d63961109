// Reads Trigger filters from their YAML form and validates them as Knative's Trigger webhook does, so a Trigger
// the local broker accepts is one `kubectl apply` accepts too. Pure.
import type { EventFilter } from './filters.ts';

const DIALECTS = ['exact', 'prefix', 'suffix', 'all', 'any', 'not', 'cesql'] as const;
/** Knative: attribute names are lowercase alphanumeric and start with a letter. */
const ATTRIBUTE_NAME = /^[a-z][a-z0-9]*$/;

/** Parses `spec.filters`; throws on unknown or multiple dialects, bad attribute names and `cesql`. */
export function parseFilters(raw: unknown, path = 'spec.filters'): EventFilter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new Error(`${path}: must be a list of filters`);
  return raw.map((entry, i) => parseFilter(entry, `${path}[${i}]`));
}

/** Parses legacy `spec.filter.attributes` (exact match, "" = any value). */
export function parseAttributesFilter(raw: unknown, path = 'spec.filter.attributes'): EventFilter | undefined {
  if (raw === undefined || raw === null) return undefined;
  return { attributes: attributeMap(raw, path, false) };
}

function parseFilter(raw: unknown, path: string): EventFilter {
  if (!isRecord(raw)) throw new Error(`${path}: must be a map with one dialect (${DIALECTS.join(', ')})`);
  const unknown = Object.keys(raw).filter((key) => !(DIALECTS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new Error(`${path}: unknown filter dialect ${unknown.join(', ')}`);
  const set = DIALECTS.filter((dialect) => isSet(dialect, raw[dialect]));
  if (set.length > 1)
    throw new Error(`${path}: multiple dialects found (${set.join(', ')}), a filter can have only one`);
  const [dialect] = set;
  switch (dialect) {
    case undefined:
      return { all: [] };
    case 'cesql':
      throw new Error(
        `${path}.cesql: CloudEvents SQL filters are not supported by the local broker; use exact/prefix/suffix/all/any/not`,
      );
    case 'not':
      return { not: parseFilter(raw.not, `${path}.not`) };
    case 'all':
      return { all: parseFilters(raw.all, `${path}.all`) };
    case 'any':
      return { any: parseFilters(raw.any, `${path}.any`) };
    case 'exact':
      return { exact: attributeMap(raw.exact, `${path}.exact`, true) };
    case 'prefix':
      return { prefix: attributeMap(raw.prefix, `${path}.prefix`, true) };
    case 'suffix':
      return { suffix: attributeMap(raw.suffix, `${path}.suffix`, true) };
    default:
      throw new Error(`${path}: unknown filter dialect ${String(dialect)}`);
  }
}

/**
 * A map attribute → string. Knative's webhook allows exactly one attribute per exact/prefix/suffix filter
 * ("Multiple items found, can have only one key-value"); several conditions are several `filters` entries.
 */
function attributeMap(raw: unknown, path: string, single: boolean): Record<string, string> {
  if (!isRecord(raw)) throw new Error(`${path}: must be a map of attribute name to string`);
  const entries = Object.entries(raw);
  if (single && entries.length > 1) {
    throw new Error(
      `${path}: Knative allows only one attribute per filter, got ${entries.length}; write one filters entry per attribute`,
    );
  }
  for (const [name, value] of entries) {
    if (!ATTRIBUTE_NAME.test(name))
      throw new Error(`${path}.${name}: attribute names must start with a letter and be lowercase alphanumeric`);
    if (typeof value !== 'string') throw new Error(`${path}.${name}: must be a string, got ${JSON.stringify(value)}`);
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Knative counts a dialect as set only when it is non-empty (`all: []` or `exact: {}` is no filter); `not` when present. */
function isSet(dialect: (typeof DIALECTS)[number], value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (dialect === 'not') return true;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
