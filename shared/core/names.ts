/** FNV-1 (not FNV-1a), 32 bit, of the UTF-8 bytes; as Go's hash/fnv New32. */
export function fnv1Hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}

/** How many leading digits of the hash upstream's cut must leave for its name to be kept (a collision within one
 * Kyma then needs two of its modules to agree in 8 decimal digits of a 32-bit hash). */
const KEPT_HASH_DIGITS = 8;

/**
 * The Manifest name of a module of a Kyma: `<kyma>-<last segment of the component name>-<FNV-32 of component
 * name + module name>`, as upstream; it is used as a label value on runtime objects, so it must stay under 63
 * characters. Upstream cuts it to 62 (without a trailing dash); for long Kyma names that cuts the hash off, so two
 * modules starting alike got the same name. Upstream's cut is kept while it leaves 8 digits of the hash; beyond
 * that the Kyma-and-segment part is cut instead and the whole hash kept: `<kyma-segment cut>-<hash>` — deterministic,
 * and as unique per module as the hash.
 */
export function manifestName(kymaName: string, componentName: string, moduleName: string): string {
  const lastSegment = componentName.split('/').pop() ?? componentName;
  const hash = String(fnv1Hash32(componentName + moduleName));
  const name = `${kymaName}-${lastSegment}-${hash}`;
  if (name.length < 63) return name;
  const upstream = name.slice(0, 62).replace(/-+$/, '');
  if (upstream.length - (name.length - hash.length) >= KEPT_HASH_DIGITS) return upstream;
  const prefix = `${kymaName}-${lastSegment}`.slice(0, 62 - hash.length - 1).replace(/-+$/, '');
  return `${prefix}-${hash}`;
}
