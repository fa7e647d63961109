// What a module's OCM component descriptor says it installs, as the decisions see it. Pure: shared/oci/ocm.ts parses
// descriptors into these, shared/oci/module-artifacts.ts looks them up in the registry.

/** A blob of the component version holding module content, pulled as `component-descriptors/<blobName ?? componentName>@<ref>`. */
export interface ModuleLayer {
  name: string;
  type: 'oci-dir' | 'oci-ref';
  ref: string;
  componentName: string;
  /** The name the blob is stored under (and the Manifest's source names) when not the component name: its SHA-256 hex (sha256-digest mapping). */
  blobName?: string;
}

/** Resource names and media types of a Helm chart module (ADR 37): the chart, a config layer (`configs: [{name:
 * <release>, values}]`, the format apply-remote reads, ADR 22) and a CRDs layer. */
export const CHART_RESOURCE = { chart: 'helm-chart', config: 'chart-config', crds: 'chart-crds' } as const;
export const CHART_MEDIA_TYPE = {
  /** Helm's own media type for a packaged chart in an OCI registry (`helm push`). */
  chart: 'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
  config: 'application/vnd.kyma-project.module.chart-config.v1+yaml',
  crds: 'application/vnd.kyma-project.module.chart-crds.v1+yaml',
} as const;

/** The layer a module installs: its raw manifest, or its packaged Helm chart with the optional config and CRDs layers. */
export type ModuleInstall =
  | (ModuleLayer & { name: 'raw-manifest' })
  | (ModuleLayer & { name: typeof CHART_RESOURCE.chart; config?: ModuleLayer; crds?: ModuleLayer });

export interface ModuleContent {
  install: ModuleInstall;
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

/** PURE. The Helm release a chart module installs as: the module name cut to Helm's 53 characters (no trailing '-');
 * the module CLI keys the config layer by it, render-manifest names `spec.installs[0]` by it (ADR 37). */
export function chartReleaseName(moduleName: string): string {
  return moduleName.slice(0, 53).replace(/-+$/, '');
}
