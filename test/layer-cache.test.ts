// The module layer cache on the real registry: a layer is pulled once however many calls need it at the same time
// (a fleet's first installs), and a failed pull is not kept.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packageModule, pushModule } from '../tools/module/package.ts';
import type { Manifest } from '../shared/core/manifest.ts';
import { LayerCache } from '../shared/oci/layer.ts';
import { RegistryClient } from '../shared/oci/registry.ts';
import { clusters } from './clusters.ts';

const { registryHost } = clusters();
const RAW = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: layer-cache\n';

/** The real registry's client, counting the blobs it is asked for. */
function countingRegistry(): { registry: RegistryClient; blobs: () => number } {
  const registry = new RegistryClient({ host: registryHost, plainHttp: true });
  let blobs = 0;
  const getBlob = registry.getBlob.bind(registry);
  registry.getBlob = (...args: Parameters<RegistryClient['getBlob']>) => (blobs++, getBlob(...args));
  return { registry, blobs: () => blobs };
}

/** A Manifest whose raw-manifest layer is `ref` of the component `name`. */
const manifestOf = (name: string, ref: string) =>
  ({ spec: { install: { source: { repo: registryHost, name, ref, type: 'oci-dir' } } } }) as unknown as Manifest;

describe('module layers pulled for installs', () => {
  it('pulls a layer once for the calls that need it at the same time, and keeps it', async () => {
    const componentName = `kyma-project.io/module/layer-cache-${randomBytes(4).toString('hex')}`;
    const pkg = packageModule({ componentName, version: '1.0.0', rawManifest: RAW, registryBaseUrl: registryHost });
    const pushed = await pushModule(new RegistryClient({ host: registryHost, plainHttp: true }), pkg);
    const { registry, blobs } = countingRegistry();
    const layers = new LayerCache(registry);
    const manifest = manifestOf(componentName, pushed.rawManifestDigest);

    const answers = await Promise.all(Array.from({ length: 8 }, () => layers.rawManifest(manifest)));
    expect(answers).toEqual(Array.from({ length: 8 }, () => ({ yaml: RAW })));
    expect(blobs()).toBe(1);
    expect(await layers.rawManifest(manifest)).toEqual({ yaml: RAW });
    expect(blobs()).toBe(1);
  });

  it('answers every waiting call with the error of a failed pull, and pulls again on the next call', async () => {
    const { registry, blobs } = countingRegistry();
    const layers = new LayerCache(registry);
    const missing = manifestOf('kyma-project.io/module/layer-cache-none', `sha256:${'0'.repeat(64)}`);

    const answers = await Promise.all(Array.from({ length: 4 }, () => layers.rawManifest(missing)));
    for (const answer of answers)
      expect(answer).toMatchObject({ error: expect.stringContaining('raw-manifest layer') });
    expect(blobs()).toBe(1);
    await layers.rawManifest(missing);
    expect(blobs()).toBe(2);
  });
});
