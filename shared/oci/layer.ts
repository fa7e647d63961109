import type { ImageSpec, Manifest } from '../core/manifest.ts';
import { fetchRawManifest } from './component.ts';
import { isRegistryError } from './errors.ts';
import { componentRepository } from './reference.ts';
import type { RegistryClient } from './registry.ts';
import { TransientError } from '../host/errors.ts';

const MAX_CACHED_LAYERS = 256;

/** Module layers by digest (content-addressed, so never stale); a small LRU in memory. A layer is pulled once at a
 * time: calls that need it meanwhile wait for that pull (a fleet's first installs need a few layers, each in dozens of
 * calls at once). */
export class LayerCache {
  private readonly layers = new Map<string, string | Uint8Array>();
  private readonly pulling = new Map<string, Promise<string | Uint8Array>>();
  readonly registry: RegistryClient;

  constructor(registry: RegistryClient) {
    this.registry = registry;
  }

  /** The raw-manifest YAML of a Manifest, digest-verified; `{ error }` when the spec or artifact is unusable. */
  async rawManifest(manifest: Manifest): Promise<{ yaml: string } | { error: string }> {
    const layer = await this.text(manifest.spec?.install?.source, 'spec.install.source', 'raw-manifest layer');
    return 'error' in layer ? layer : { yaml: layer.text };
  }

  /** A YAML layer (raw manifest, chart config, CRDs): `oci-ref` is the blob, `oci-dir` the first file of its tar. */
  async text(
    source: ImageSpec | undefined,
    field: string,
    what = 'layer',
  ): Promise<{ text: string } | { error: string }> {
    if (!source || (source.type !== 'oci-ref' && source.type !== 'oci-dir'))
      return { error: `${field}: render mode is invalid (type must be oci-ref or oci-dir)` };
    const problem = this.foreign(source.repo, field);
    if (problem) return { error: problem };
    const layer = await this.cached(`${source.name}@${source.ref}`, `${what} ${source.name}@${source.ref}`, () =>
      fetchRawManifest(this.registry, source.name, { ref: source.ref, type: source.type }),
    );
    return 'error' in layer ? layer : { text: layer.value as string };
  }

  /** A layer's bytes as stored (a packaged chart), digest-verified. */
  async bytes(
    source: { repo: string; name: string; ref: string },
    field: string,
  ): Promise<{ bytes: Uint8Array } | { error: string }> {
    const problem = this.foreign(source.repo, field);
    if (problem) return { error: problem };
    const layer = await this.cached(
      `${source.name}@${source.ref}#bytes`,
      `chart layer ${source.name}@${source.ref}`,
      () => this.registry.getBlob(componentRepository(source.name), source.ref),
    );
    return 'error' in layer ? layer : { bytes: layer.value as Uint8Array };
  }

  private foreign(repo: string, field: string): string {
    return repo === this.registry.host
      ? ''
      : `${field}.repo ${repo} is not the configured module registry ${this.registry.host}`;
  }

  /** `what` names the layer in errors (`raw-manifest layer <name>@<digest>`). */
  private async cached(
    key: string,
    what: string,
    pull: () => Promise<string | Uint8Array>,
  ): Promise<{ value: string | Uint8Array } | { error: string }> {
    const hit = this.layers.get(key);
    if (hit !== undefined) return { value: hit };
    try {
      return { value: await this.pulled(key, pull) };
    } catch (error) {
      if (isRegistryError(error) && error.retryable)
        throw new TransientError(`module registry: ${error.message}`, error);
      return { error: `${what}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** The pull of `key` under way, or a new one that stores the layer once it arrives. */
  private pulled(key: string, pull: () => Promise<string | Uint8Array>): Promise<string | Uint8Array> {
    const pending = this.pulling.get(key);
    if (pending) return pending;
    const pulled = pull().then((value) => {
      if (this.layers.size >= MAX_CACHED_LAYERS) this.layers.delete(this.layers.keys().next().value ?? '');
      this.layers.set(key, value);
      return value;
    });
    this.pulling.set(key, pulled);
    const forget = () => void this.pulling.delete(key);
    pulled.then(forget, forget);
    return pulled;
  }
}
