import { stringify } from 'yaml';
import type { ArtifactLookup, ModuleArtifact } from '../core/descriptors.ts';
import type { ModuleTemplate } from '../core/templates.ts';
import { TransientError } from '../host/errors.ts';
import { fetchComponentDescriptor } from './component.ts';
import { isRegistryError } from './errors.ts';
import { moduleContent, parseComponentDescriptor, registryHostOf, type ComponentDescriptor } from './ocm.ts';
import type { RegistryClient } from './registry.ts';

/** Module content per component version from the registry's OCM descriptor (immutable: cached for the process's life),
 * else the ModuleTemplate's `spec.descriptor`. Registry outages throw (retried); anything else is the artifact or why
 * it cannot be installed. A descriptor naming a host outside `allowedHosts` (registry + allowlist) is refused whole. */
export class ModuleArtifacts {
  private readonly cache = new Map<string, Promise<ModuleArtifact>>();
  private readonly registry: RegistryClient;
  private readonly allowedHosts: ReadonlySet<string>;

  constructor(registry: RegistryClient, allowedHosts: readonly string[] = [registry.host]) {
    this.registry = registry;
    this.allowedHosts = new Set(allowedHosts.map((h) => h.toLowerCase()));
  }

  async lookup(componentName: string, version: string, template?: ModuleTemplate): Promise<ArtifactLookup> {
    const found = await this.find(componentName, version, template);
    const host = 'artifact' in found ? found.artifact.registryHost : undefined;
    if (host === undefined || this.allowedHosts.has(host)) return found;
    return {
      error: `descriptor of ${componentName}:${version} names registry host ${host}, which is not allowed (allowed: ${[...this.allowedHosts].join(', ')}; see LIFECYCLE_OCI_REGISTRY_ALLOWLIST)`,
    };
  }

  private async find(componentName: string, version: string, template?: ModuleTemplate): Promise<ArtifactLookup> {
    try {
      return { artifact: await this.cached(componentName, version) };
    } catch (error) {
      if (isRegistryError(error, 'NotFound') && template?.spec?.descriptor)
        return fromTemplate(componentName, template);
      if (isRegistryError(error) && error.retryable)
        throw new TransientError(`module registry: ${error.message}`, error);
      return {
        error: `failed to get descriptor of ${componentName}:${version}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  private cached(componentName: string, version: string): Promise<ModuleArtifact> {
    const key = `${componentName}:${version}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = fetchComponentDescriptor(this.registry, componentName, version).then((descriptor) =>
        artifactOf(descriptor, componentName),
      );
      entry.catch(() => this.cache.delete(key));
      this.cache.set(key, entry);
    }
    return entry;
  }
}

function fromTemplate(componentName: string, template: ModuleTemplate): ArtifactLookup {
  try {
    return { artifact: artifactOf(parseComponentDescriptor(stringify(template.spec?.descriptor)), componentName) };
  } catch (error) {
    return {
      error: `descriptor of ModuleTemplate ${template.metadata.name}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

const artifactOf = (descriptor: ComponentDescriptor, componentName: string): ModuleArtifact => ({
  ...moduleContent(descriptor),
  componentName,
  version: descriptor.version,
  registryHost: registryHostOf(descriptor),
});
