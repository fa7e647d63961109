/** FNV-1 (not FNV-1a), 32 bit, of the UTF-8 bytes; as Go's hash/fnv New32. */
export function fnv1Hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash, 0x01000193) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}

/** Upstream's Manifest name of a module of a Kyma (ADR 40): `<kyma>-<last segment of component>-<FNV-32 of component
 * + module>`, cut to 62 characters without a trailing dash; a long Kyma name can cut away the hash, so two modules may
 * then get one name. */
export function upstreamManifestName(kymaName: string, componentName: string, moduleName: string): string {
  const name = `${kymaName}-${lastSegment(componentName)}-${hashOf(componentName, moduleName)}`;
  return name.length < 63 ? name : name.slice(0, 62).replace(/-+$/, '');
}

/** The collision-safe form: the whole hash kept, `<kyma>-<segment>` cut instead (≤ 62 characters). */
export function safeManifestName(kymaName: string, componentName: string, moduleName: string): string {
  const hash = hashOf(componentName, moduleName);
  const prefix = `${kymaName}-${lastSegment(componentName)}`.slice(0, 62 - hash.length - 1).replace(/-+$/, '');
  return `${prefix}-${hash}`;
}

/** PURE. The name of a (Kyma, module)'s Manifest (ADR 40): the one it already has, whatever its name; else upstream's
 * name unless another Manifest holds it (`taken`); else the collision-safe form. */
export function chooseManifestName(
  kymaName: string,
  componentName: string,
  moduleName: string,
  own: string | undefined,
  taken: (name: string) => boolean,
): string {
  if (own) return own;
  const upstream = upstreamManifestName(kymaName, componentName, moduleName);
  return taken(upstream) ? safeManifestName(kymaName, componentName, moduleName) : upstream;
}

const lastSegment = (componentName: string) => componentName.split('/').pop() ?? componentName;
const hashOf = (componentName: string, moduleName: string) => String(fnv1Hash32(componentName + moduleName));
