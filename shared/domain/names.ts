/** FNV-1 (not FNV-1a), 32 bit, of the UTF-8 bytes; as Go's hash/fnv New32. */
export function fnv1Hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}

/**
 * The Manifest name of a module of a Kyma: `<kyma>-<last segment of the component name>-<FNV-32 of component
 * name + module name>`, cut to 62 characters (without a trailing dash) when 63 or longer, because it is
 * used as a label value on runtime objects.
 */
export function manifestName(kymaName: string, componentName: string, moduleName: string): string {
  const lastSegment = componentName.split('/').pop() ?? componentName;
  const name = `${kymaName}-${lastSegment}-${fnv1Hash32(componentName + moduleName)}`;
  return name.length >= 63 ? name.slice(0, 62).replace(/-+$/, '') : name;
}
