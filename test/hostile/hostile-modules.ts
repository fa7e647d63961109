// Module versions whose raw-manifest layer is hostile or broken, pushed to a real registry as OCM components: the
// sample module is published (ModuleTemplate and all), then its component version is replaced by one whose
// raw-manifest blob is the given bytes. Also a raw tar writer that, unlike shared/oci/tar.ts, writes anything.
import { gzipSync } from 'node:zlib';
import { parse, stringify } from 'yaml';
import type { KubeClient } from '../../shared/kube/client.ts';
import { packageModule, pushModule } from '../../tools/module/package.ts';
import { publishSampleModule } from '../../tools/module/publish.ts';
import { sampleComponent, sampleRawManifest } from '../../tools/module/sample.ts';
import { sha256Digest } from '../../shared/oci/manifest.ts';
import type { RegistryClient } from '../../shared/oci/registry.ts';

export const TAR = 'application/x-tar';
export const OCTET = 'application/octet-stream';

/** Publishes `name`@`version` whose raw-manifest layer is `bytes` (`mediaType` tar → oci-dir, else oci-ref). */
export async function publishHostileModule(
  registry: RegistryClient,
  kcp: KubeClient,
  opts: { name: string; version: string; namespace: string; registryBaseUrl?: string },
  bytes: Uint8Array,
  mediaType: string,
): Promise<string> {
  await publishSampleModule(registry, kcp, opts);
  const pkg = packageModule({
    componentName: sampleComponent(opts.name),
    version: opts.version,
    rawManifest: sampleRawManifest(opts),
    registryBaseUrl: opts.registryBaseUrl ?? registry.host,
  });
  const digest = sha256Digest(bytes);
  const descriptor = parse(pkg.descriptorYaml) as {
    component: { resources: { name: string; access: Record<string, unknown> }[] };
  };
  for (const r of descriptor.component.resources)
    if (r.name === 'raw-manifest') r.access = { ...r.access, localReference: digest, mediaType };
  const blobs = pkg.blobs.map((b) => (b.resourceName === 'raw-manifest' ? { ...b, bytes, digest, mediaType } : b));
  await pushModule(registry, { ...pkg, descriptorYaml: stringify(descriptor), blobs });
  return digest;
}

/** A ustar archive of arbitrary entries: names as given (`../x`, `/etc/x`), any type flag (`2` symlink, `1` hard link). */
export function rawTar(entries: { name: string; type?: string; linkTarget?: string; data?: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const e of entries) {
    const data = new TextEncoder().encode(e.data ?? '');
    const header = new Uint8Array(512);
    const put = (at: number, text: string) => header.set(new TextEncoder().encode(text), at);
    put(0, e.name);
    put(100, '0000644\0');
    put(108, '0000000\0');
    put(116, '0000000\0');
    put(124, `${data.length.toString(8).padStart(11, '0')}\0`);
    put(136, '00000000000\0');
    put(148, '        ');
    put(156, e.type ?? '0');
    put(157, e.linkTarget ?? '');
    put(257, 'ustar\u000000');
    put(
      148,
      `${header
        .reduce((n, b) => n + b, 0)
        .toString(8)
        .padStart(6, '0')}\0 `,
    );
    blocks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return Buffer.concat(blocks);
}

const text = (s: string) => new TextEncoder().encode(s);

/** A YAML "billion laughs": nine levels of nine aliases each. */
export const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
    (k, i) =>
      `${k}: &${k} [${Array(9)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(',')}]`,
  ),
].join('\n');

/** The hostile layers of the matrix, each with the words its refusal must contain. */
export const HOSTILE_LAYERS: {
  name: string;
  what: string;
  bytes: () => Uint8Array;
  mediaType: string;
  refusal: RegExp;
}[] = [
  {
    name: 'invalid-yaml',
    what: 'invalid YAML',
    bytes: () => rawTar([{ name: 'raw-manifest.yaml', data: 'apiVersion: v1\nkind: [ConfigMap\nmetadata: {' }]),
    mediaType: TAR,
    refusal: /not valid YAML/,
  },
  {
    name: 'alias-bomb',
    what: 'a YAML alias bomb',
    bytes: () =>
      text(
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${ALIAS_BOMB.split('\n')
          .map((l) => `  ${l}`)
          .join('\n')}\n`,
      ),
    mediaType: OCTET,
    refusal: /alias/i,
  },
  {
    name: 'kindless',
    what: 'a document without kind/apiVersion',
    bytes: () => rawTar([{ name: 'raw-manifest.yaml', data: 'metadata:\n  name: nameless\ndata: {a: b}\n' }]),
    mediaType: TAR,
    refusal: /lacks apiVersion, kind or metadata.name/,
  },
  {
    name: 'traversal',
    what: 'a tar entry escaping with ..',
    bytes: () =>
      rawTar([
        { name: '../../etc/raw-manifest.yaml', data: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: escaped}\n' },
      ]),
    mediaType: TAR,
    refusal: /escapes the archive/,
  },
  {
    name: 'absolute',
    what: 'a tar entry with an absolute path',
    bytes: () =>
      rawTar([
        { name: '/etc/raw-manifest.yaml', data: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: absolute}\n' },
      ]),
    mediaType: TAR,
    refusal: /absolute or unsafe path/,
  },
  {
    name: 'symlink',
    what: 'a tar symlink entry',
    bytes: () => rawTar([{ name: 'raw-manifest.yaml', type: '2', linkTarget: '/etc/passwd' }]),
    mediaType: TAR,
    refusal: /symbolic link/,
  },
  {
    name: 'hardlink',
    what: 'a tar hard-link entry',
    bytes: () => rawTar([{ name: 'raw-manifest.yaml', type: '1', linkTarget: '/etc/shadow' }]),
    mediaType: TAR,
    refusal: /hard link/,
  },
  {
    name: 'gzip-bomb',
    what: 'a gzip layer unpacking over the size limit',
    bytes: () => gzipSync(Buffer.alloc(65 * 1024 * 1024, 0x20)),
    mediaType: OCTET,
    refusal: /unpacks to more than/,
  },
  {
    name: 'oversize',
    what: 'a layer over the size limit (64 MiB)',
    bytes: () => Buffer.alloc(64 * 1024 * 1024 + 1, 0x20),
    mediaType: OCTET,
    refusal: /larger than|too large|exceeds/i,
  },
];
