import { gunzipSync } from 'node:zlib';
import { badContent, RegistryError } from './errors.ts';
import type { OciDescriptor } from './manifest.ts';
import type { ModuleLayer } from '../core/descriptors.ts';
import { parseComponentDescriptor, type ComponentDescriptor } from './ocm.ts';
import { componentRepository, ocmTag } from './reference.ts';
import type { RegistryClient } from './registry.ts';
import { readTar } from './tar.ts';

export const OCM_CONFIG = 'application/vnd.ocm.software.component.config.v1+json';
const LEGACY_CONFIG = 'application/vnd.gardener.cloud.cnudie.component.config.v1+json';
export const DESCRIPTOR_LAYER = 'application/vnd.ocm.software.component-descriptor.v2+yaml+tar';
export const DESCRIPTOR_FILE = 'component-descriptor.yaml';
const MAX_CONFIG_BYTES = 64 * 1024;
const MAX_DESCRIPTOR_BYTES = 4 * 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a component version the OCM way: `component-descriptors/<name>:<tag>` → image manifest → config
 * (`componentDescriptorLayer`) → that layer (a tar holding `component-descriptor.yaml`) → the parsed descriptor. */
export async function fetchComponentDescriptor(
  client: RegistryClient,
  componentName: string,
  version: string,
): Promise<ComponentDescriptor> {
  const repository = componentRepository(componentName);
  const what = `component ${client.host}/${repository}:${ocmTag(version)}`;
  const { manifest } = await client.getManifest(repository, ocmTag(version));
  const config = manifest.config;
  if (!config || (config.mediaType !== OCM_CONFIG && config.mediaType !== LEGACY_CONFIG)) {
    throw badContent(`${what}: manifest config is not an OCM component config`);
  }
  const layer = descriptorLayer(await client.getBlob(repository, config.digest, { maxBytes: MAX_CONFIG_BYTES }), what);
  const blob = await client.getBlob(repository, layer.digest, { maxBytes: MAX_DESCRIPTOR_BYTES });
  const descriptor = parseComponentDescriptor(descriptorText(blob, layer.mediaType, what));
  if (descriptor.name !== componentName || descriptor.version !== version) {
    throw badContent(`${what}: descriptor describes ${descriptor.name}:${descriptor.version}`);
  }
  return descriptor;
}

function descriptorLayer(configBlob: Uint8Array, what: string): OciDescriptor {
  let config: { componentDescriptorLayer?: Partial<OciDescriptor> };
  try {
    config = JSON.parse(decode(configBlob, what)) as typeof config;
  } catch (e) {
    throw e instanceof RegistryError ? e : badContent(`${what}: component config is not JSON`);
  }
  const layer = config.componentDescriptorLayer;
  if (typeof layer?.digest !== 'string')
    throw badContent(`${what}: component config has no componentDescriptorLayer digest`);
  return { mediaType: layer.mediaType ?? DESCRIPTOR_LAYER, digest: layer.digest, size: layer.size ?? 0 };
}

function descriptorText(blob: Uint8Array, mediaType: string, what: string): string {
  if (!mediaType.endsWith('+tar') && mediaType !== 'application/x-tar') return decode(blob, what);
  const file = readTar(blob).find((f) => f.path === DESCRIPTOR_FILE);
  if (!file) throw badContent(`${what}: descriptor layer holds no ${DESCRIPTOR_FILE}`);
  return decode(file.data, what);
}

/** Pulls a module layer (`component-descriptors/<componentName>@<ref>`, digest verified) and returns its text:
 * for `oci-dir` the first regular file of the tar, for `oci-ref` the blob itself. Gzip is undone transparently. */
export async function fetchRawManifest(
  client: RegistryClient,
  componentName: string,
  layer: Pick<ModuleLayer, 'ref' | 'type'>,
  options: { maxBytes?: number } = {},
): Promise<string> {
  const repository = componentRepository(componentName);
  const what = `layer ${client.host}/${repository}@${layer.ref}`;
  const maxBytes = options.maxBytes ?? client.maxBlobBytes;
  const blob = gunzipIfNeeded(await client.getBlob(repository, layer.ref, { maxBytes }), maxBytes, what);
  if (layer.type === 'oci-ref') return decode(blob, what);
  const [file] = readTar(blob);
  if (!file) throw badContent(`${what}: the tar holds no regular file`);
  return decode(file.data, what);
}

function gunzipIfNeeded(blob: Uint8Array, maxBytes: number, what: string): Uint8Array {
  if (blob[0] !== 0x1f || blob[1] !== 0x8b) return blob;
  try {
    return gunzipSync(blob, { maxOutputLength: maxBytes });
  } catch (e) {
    const tooLarge =
      e instanceof RangeError || (e instanceof Error && 'code' in e && e.code === 'ERR_BUFFER_TOO_LARGE');
    throw tooLarge
      ? new RegistryError('TooLarge', `${what}: unpacks to more than ${maxBytes} bytes`)
      : badContent(`${what}: broken gzip data`);
  }
}

function decode(bytes: Uint8Array, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badContent(`${what}: content is not UTF-8 text`);
  }
}
