import { createHash } from 'node:crypto';
import { badContent } from './errors.ts';

export interface OciDescriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  artifactType?: string;
}

/** An OCI image manifest or index (only the fields this project reads or writes). */
export interface OciManifest {
  schemaVersion: number;
  mediaType?: string;
  artifactType?: string;
  config?: OciDescriptor;
  layers?: OciDescriptor[];
  manifests?: OciDescriptor[];
  annotations?: Record<string, string>;
}

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const MANIFEST_ACCEPT = [
  OCI_MANIFEST,
  OCI_INDEX,
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
].join(', ');
/** distribution refuses larger manifests, so larger answers are not manifests. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

export const sha256Digest = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export function parseManifest(bytes: Uint8Array, what: string): OciManifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw badContent(`${what}: manifest is not JSON`);
  }
  if (typeof manifest !== 'object' || manifest === null || (manifest as OciManifest).schemaVersion !== 2) {
    throw badContent(`${what}: not an OCI manifest (schemaVersion 2)`);
  }
  return manifest as OciManifest;
}
