import { isRegistryError } from '../oci/errors.ts';
import { fetchComponentDescriptor } from '../oci/component.ts';
import { moduleContent, parseComponentDescriptor, type ModuleContent } from '../oci/ocm.ts';
import type { RegistryClient } from '../oci/registry.ts';
import { stringify } from 'yaml';
import { TransientError } from '../runtime/errors.ts';
import type { ModuleTemplate } from '../domain/templates.ts';

export interface ModuleArtifact extends ModuleContent {
  componentName: string;
  version: string;
}

export type ArtifactLookup = { artifact: ModuleArtifact } | { error: string };

/**
 * Module content per component version, read from the registry's OCM component descriptor (immutable, so cached
 * for the life of the process), with the ModuleTemplate's embedded `spec.descriptor` as the fallback when the
 * registry has no such component version. Registry outages throw (the delivery is retried); everything else is
 * an answer: the artifact, or the reason it cannot be installed.
 */
export class ModuleArtifacts {
  private readonly cache = new Map<string, Promise<ModuleArtifact>>();
  private readonly registry: RegistryClient;

  constructor(registry: RegistryClient) {
    this.registry = registry;
  }

  async lookup(componentName: string, version: string, template?: ModuleTemplate): Promise<ArtifactLookup> {
    try {
      return { artifact: await this.cached(componentName, version) };
    } catch (error) {
      if (isRegistryError(error, 'NotFound') && template?.spec?.descriptor) return fromTemplate(componentName, template);
      if (isRegistryError(error) && error.retryable) throw new TransientError(`module registry: ${error.message}`, error);
      return { error: `failed to get descriptor of ${componentName}:${version}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private cached(componentName: string, version: string): Promise<ModuleArtifact> {
    const key = `${componentName}:${version}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = fetchComponentDescriptor(this.registry, componentName, version)
        .then((descriptor) => ({ ...moduleContent(descriptor), componentName, version: descriptor.version }));
      entry.catch(() => this.cache.delete(key));
      this.cache.set(key, entry);
    }
    return entry;
  }
}

function fromTemplate(componentName: string, template: ModuleTemplate): ArtifactLookup {
  try {
    const descriptor = parseComponentDescriptor(stringify(template.spec?.descriptor));
    return { artifact: { ...moduleContent(descriptor), componentName, version: descriptor.version } };
  } catch (error) {
    return { error: `descriptor of ModuleTemplate ${template.metadata.name}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
