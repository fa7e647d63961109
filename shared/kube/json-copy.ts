/** A deep copy of data parsed from JSON (objects, arrays, strings, numbers, booleans, null), as the API server's
 * objects are: several times cheaper than structuredClone, which serializes any value. A `__proto__` key stays a
 * key of the copy, as JSON.parse made it, never its prototype. */
export function jsonCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => jsonCopy(item)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: jsonCopy(item), enumerable: true, writable: true, configurable: true });
    else copy[key] = jsonCopy(item);
  }
  return copy as T;
}
