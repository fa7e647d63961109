// The module versions upstream installed, pushed as recorded (test/fixtures/upstream-klm-c5b83f1/oci): the local blobs
// byte for byte (so the digests the Manifests name are found), the descriptor rendered for this registry.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { sha256Digest } from '../../shared/oci/manifest.ts';
import type { RegistryClient } from '../../shared/oci/registry.ts';
import { pushModule, type LocalBlob } from '../../tools/module/package.ts';
import { FIXTURE_DIR } from './fixture.ts';

interface IndexEntry {
  repository: string;
  tag: string;
  layers: {
    mediaType: string;
    digest: string;
    annotations?: Record<string, string>;
    file?: string;
    template?: string;
  }[];
}

/** Pushes every recorded component version; answers the raw-manifest digests pushed. */
export async function pushFixtureModules(registry: RegistryClient): Promise<string[]> {
  const index = parse(await readFile(join(FIXTURE_DIR, 'oci/index.yaml'), 'utf8')) as IndexEntry[];
  const pushed: string[] = [];
  for (const entry of index) {
    const componentName = entry.repository.replace(/^component-descriptors\//, '');
    const template = entry.layers.find((l) => l.template)?.template?.split(' ')[0] ?? '';
    const descriptorYaml = (await readFile(join(FIXTURE_DIR, 'oci', template), 'utf8')).replaceAll(
      '${REGISTRY}',
      registry.host,
    );
    const blobs: LocalBlob[] = [];
    for (const layer of entry.layers.filter((l) => l.file)) {
      const bytes = new Uint8Array(await readFile(join(FIXTURE_DIR, 'oci', layer.file ?? '')));
      const digest = sha256Digest(bytes);
      if (digest !== layer.digest)
        throw new Error(`fixture blob ${layer.file}: digest ${digest}, recorded ${layer.digest}`);
      const identity = JSON.parse(layer.annotations?.['software.ocm.artifact'] ?? '[]') as {
        identity: { name: string };
      }[];
      blobs.push({
        resourceName: identity[0]?.identity.name ?? '',
        resourceType: 'directoryTree',
        fileName: layer.annotations?.['org.opencontainers.image.title'] ?? '',
        mediaType: layer.mediaType,
        digest,
        bytes,
      });
      pushed.push(digest);
    }
    await pushModule(registry, { componentName, version: entry.tag, tag: entry.tag, descriptorYaml, blobs });
  }
  return pushed;
}
