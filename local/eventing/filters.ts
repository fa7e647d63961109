// Knative Trigger filtering, pure: the CloudEvents Subscriptions API dialects of `spec.filters` and the legacy
// `spec.filter.attributes`, evaluated on an event's context attributes and extensions (never on its data).

type AttributeMap = Readonly<Record<string, string>>;

/** One entry of `spec.filters` (one dialect each), or the legacy `spec.filter.attributes` as `{ attributes }`. */
export type EventFilter =
  | { readonly exact: AttributeMap }
  | { readonly prefix: AttributeMap }
  | { readonly suffix: AttributeMap }
  | { readonly all: readonly EventFilter[] }
  | { readonly any: readonly EventFilter[] }
  | { readonly not: EventFilter }
  | { readonly attributes: AttributeMap };

/** Context attributes and extensions of an event; a missing attribute is absent (or undefined). */
export type EventAttributes = Readonly<Record<string, unknown>>;

/** True when the event passes every filter of the list (an empty list passes everything). */
export function matchesAll(filters: readonly EventFilter[], event: EventAttributes): boolean {
  return filters.every((filter) => matches(filter, event));
}

export function matches(filter: EventFilter, event: EventAttributes): boolean {
  if ('exact' in filter) return compareEach(filter.exact, event, (value, expected) => value === expected);
  if ('prefix' in filter) return compareEach(filter.prefix, event, (value, expected) => value.startsWith(expected));
  if ('suffix' in filter) return compareEach(filter.suffix, event, (value, expected) => value.endsWith(expected));
  if ('all' in filter) return filter.all.every((f) => matches(f, event));
  if ('any' in filter) return filter.any.length === 0 || filter.any.some((f) => matches(f, event));
  if ('not' in filter) return !matches(filter.not, event);
  return compareEach(
    filter.attributes,
    withContextDefaults(event),
    (value, expected) => expected === '' || value === expected,
  );
}

/** The legacy filter sees every context attribute, set or not (unset = ""); only extensions can be absent. */
const CONTEXT_ATTRIBUTES = ['specversion', 'id', 'source', 'type', 'subject', 'time', 'dataschema', 'datacontenttype'];
function withContextDefaults(event: EventAttributes): EventAttributes {
  return { ...Object.fromEntries(CONTEXT_ATTRIBUTES.map((name) => [name, ''])), ...definedOnly(event) };
}

function definedOnly(event: EventAttributes): EventAttributes {
  return Object.fromEntries(Object.entries(event).filter(([, value]) => value !== undefined && value !== null));
}

/** Every entry must match; an attribute the event does not carry never matches. */
function compareEach(
  expected: AttributeMap,
  event: EventAttributes,
  test: (value: string, expected: string) => boolean,
) {
  return Object.entries(expected).every(([name, want]) => {
    const value = attributeText(event[name]);
    return value !== undefined && test(value, want);
  });
}

/** Attributes are compared as strings (Knative converts non-string attributes to their string form). */
function attributeText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
