import type { Manifest } from '../../shared/domain/manifest.ts';
import { fetchRawManifest } from '../../shared/oci/component.ts';
import { isRegistryError } from '../../shared/oci/errors.ts';
import type { RegistryClient } from '../../shared/oci/registry.ts';
import { TransientError } from '../../shared/runtime/errors.ts';

const MAX_CACHED_LAYERS = 256;

/** Raw-manifest layers by digest (content-addressed, so never stale); a small LRU in memory. */
export class LayerCache {
  private readonly layers = new Map<string, string>();
  private readonly registry: RegistryClient;

  constructor(registry: RegistryClient) {
    this.registry = registry;
  }

  /** The raw-manifest YAML of a Manifest, digest-verified; `{ error }` when the spec or artifact is unusable. */
  async rawManifest(manifest: Manifest): Promise<{ yaml: string } | { error: string }> {
    const source = manifest.spec?.install.source;
    if (!source || (source.type !== 'oci-ref' && source.type !== 'oci-dir')) return { error: 'spec.install.source: render mode is invalid (type must be oci-ref or oci-dir)' };
    if (source.repo !== this.registryBase()) return { error: `spec.install.source.repo ${source.repo} is not the configured module registry ${this.registryBase()}` };
    const key = `${source.name}@${source.ref}`;
    const hit = this.layers.get(key);
    if (hit !== undefined) return { yaml: hit };
    try {
      const yaml = await fetchRawManifest(this.registry, source.name, { ref: source.ref, type: source.type });
      this.remember(key, yaml);
      return { yaml };
    } catch (error) {
      if (isRegistryError(error) && error.retryable) throw new TransientError(`module registry: ${error.message}`, error);
      return { error: `raw-manifest layer ${key}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private registryBase(): string {
    return this.registry.host;
  }

  private remember(key: string, yaml: string): void {
    if (this.layers.size >= MAX_CACHED_LAYERS) this.layers.delete(this.layers.keys().next().value ?? '');
    this.layers.set(key, yaml);
  }
}
