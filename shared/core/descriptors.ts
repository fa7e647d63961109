// What a module's OCM component descriptor says it installs, as the decisions see it. Pure: shared/oci/ocm.ts parses
// descriptors into these, shared/oci/module-artifacts.ts looks them up in the registry.

/** A blob of the component version holding module content, pulled as `component-descriptors/<componentName>@<ref>`. */
export interface ModuleLayer {
  name: string;
  type: 'oci-dir' | 'oci-ref';
  ref: string;
  componentName: string;
}

export interface ModuleContent {
  install: ModuleLayer & { name: 'raw-manifest' };
  layers: ModuleLayer[];
  localizedImages: string[];
}

export interface ModuleArtifact extends ModuleContent {
  componentName: string;
  version: string;
  /** The registry host the descriptor names (its effective repository context), if any. */
  registryHost: string | undefined;
}

/** `transient`: the registry could not be reached (it may answer later); the module keeps what it had meanwhile. */
export type ArtifactLookup = { artifact: ModuleArtifact } | { error: string; transient?: boolean };
