// Objects built once and shared by many calls (a runtime's catalog copies, the lifecycle CRDs, ADR 89): frozen to the
// leaves, so what is derived from one (its applied hash, its fingerprint) is kept with it and never goes stale.
// Pure but for the WeakMaps that keep what was derived.

const frozen = new WeakSet<object>();

/** `value` frozen to its leaves and marked as such; answers it. Nothing can change it afterwards (strict mode throws). */
export function freezeDeep<T>(value: T): T {
  if (value === null || typeof value !== 'object' || frozen.has(value)) return value;
  for (const item of Object.values(value)) freezeDeep(item);
  Object.freeze(value);
  frozen.add(value);
  return value;
}

/** Whether `value` was frozen by freezeDeep (a shallow Object.freeze does not count). */
export const isFrozenDeep = (value: unknown): value is object =>
  value !== null && typeof value === 'object' && frozen.has(value);

/** A function of an object, computed once per deep-frozen object (kept as long as the object lives); for any other
 * value computed on every call. */
export function onceForFrozen<T, R>(derive: (value: T) => R): (value: T) => R {
  const kept = new WeakMap<object, R>();
  return (value) => {
    if (!isFrozenDeep(value)) return derive(value);
    if (kept.has(value)) return kept.get(value) as R;
    const derived = derive(value);
    kept.set(value, derived);
    return derived;
  };
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;

/** A number naming this object (not its content) while it lives: equal numbers, the same object. */
export function identityOf(value: object): number {
  let id = identities.get(value);
  if (id === undefined) identities.set(value, (id = ++nextIdentity));
  return id;
}
