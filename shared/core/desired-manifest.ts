// PURE. The Manifest of one module of a Kyma as render-manifest writes it, in upstream's shape. render-manifest and the
// release plan both build it with these.
import { CHART_RESOURCE, chartReleaseName, type ModuleInstall } from './descriptors.ts';
import type { Kyma, KymaModule, ModuleStatus } from './kyma.ts';
import type { ImageSpec, Manifest, ManifestSpec } from './manifest.ts';
import { isInClusterKyma } from './in-cluster.ts';
import type { ModuleTemplate } from './templates.ts';
import { ANNOTATION, API_VERSION, LABEL, MANAGED_BY_KCP, REMOTE_NAMESPACE } from './vocabulary.ts';

/** Everything a module's Manifest is made of: the Kyma's wish, the resolved template and the descriptor. */
export interface ModuleSource {
  module: KymaModule;
  entry: ModuleStatus;
  template: ModuleTemplate;
  componentName: string;
  version: string;
  /** The layer installed: the raw manifest, or the packaged chart when `chart` is set. */
  install: ImageSpec;
  /** A module made of a Helm chart (ADR 37): `install` is the chart; its values (config) and CRDs layers. */
  chart?: { config?: ImageSpec; crds?: ImageSpec };
  localizedImages: string[];
  /** A mandatory module (from a ModuleReleaseMeta with spec.mandatory): on every Kyma, no channel. */
  mandatory?: boolean;
}

/** PURE. The Manifest `name` (chooseManifestName) of one module of a Kyma, in upstream's shape: labels, annotations,
 * owner and spec as upstream writes them (also its deprecated `spec.remote: false`), so upstream reads it as its own. */
export function desiredManifest(kyma: Kyma, src: ModuleSource, name: string, syncedRef?: string): Manifest {
  const namespace = kyma.metadata.namespace ?? '';
  const labels: Record<string, string> = {
    [LABEL.kymaName]: kyma.metadata.name,
    [LABEL.moduleName]: src.module.name,
    [LABEL.managedBy]: MANAGED_BY_KCP,
    [LABEL.controllerName]: src.template.metadata.labels?.[LABEL.controllerName] ?? '',
    ...(src.mandatory ? { [LABEL.mandatoryModule]: 'true' } : { [LABEL.channel]: src.entry.channel ?? '' }),
    // Single-cluster mode (ADR 21): the module goes into the control-plane cluster.
    ...(isInClusterKyma(kyma) ? { [LABEL.inCluster]: 'true' } : {}),
  };
  return {
    apiVersion: API_VERSION,
    kind: 'Manifest',
    metadata: {
      name,
      namespace,
      labels,
      annotations: {
        [ANNOTATION.ocmComponentName]: src.componentName,
        [ANNOTATION.fqdn]: src.componentName,
        ...(syncedRef ? { [ANNOTATION.syncOciRef]: syncedRef } : {}),
        ...(src.module.allowCrdPrune?.length ? { [ANNOTATION.allowCrdPrune]: src.module.allowCrdPrune.join(',') } : {}),
      },
      ownerReferences: [
        {
          apiVersion: API_VERSION,
          kind: 'Kyma',
          name: kyma.metadata.name,
          uid: kyma.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...installOf(src),
      resource: defaultCr(src.template, name),
      customResourcePolicy: src.module.customResourcePolicy ?? 'CreateAndDelete',
      version: src.version,
      localizedImages: src.localizedImages,
      ...(src.template.spec?.manager ? { manager: src.template.spec.manager } : {}),
      // Upstream's deprecated field, always false and read by nobody (ADR 40); written so the spec is upstream's.
      remote: false,
    },
  };
}

/** PURE. The layers of a descriptor's install as the Manifest names them (in the module registry, by digest): named by
 * the layer's blob name, as upstream writes it — the component name, or its SHA-256 hex under sha256-digest mapping. */
export function installSources(
  registryHost: string,
  componentName: string,
  install: ModuleInstall,
): Pick<ModuleSource, 'install' | 'chart'> {
  const spec = (layer: { ref: string; type: ImageSpec['type']; blobName?: string }): ImageSpec => ({
    repo: registryHost,
    name: layer.blobName ?? componentName,
    ref: layer.ref,
    type: layer.type,
  });
  if (install.name !== CHART_RESOURCE.chart) return { install: spec(install) };
  return {
    install: spec(install),
    chart: {
      ...(install.config ? { config: spec(install.config) } : {}),
      ...(install.crds ? { crds: spec(install.crds) } : {}),
    },
  };
}

/** `spec.install` (raw manifest), or for a chart module `spec.installs` (one release named after the module),
 * `spec.config` and `spec.crds`, which apply-remote renders with Helm (ADR 22). */
function installOf(src: ModuleSource): Pick<ManifestSpec, 'install' | 'installs' | 'config' | 'crds'> {
  if (!src.chart) return { install: { name: 'raw-manifest', source: src.install } };
  const { repo, name, ref } = src.install;
  return {
    installs: [{ name: chartReleaseName(src.module.name), source: { type: 'oci-ref', repo, name, ref } }],
    ...(src.chart.config ? { config: src.chart.config } : {}),
    ...(src.chart.crds ? { crds: src.chart.crds } : {}),
  };
}

/** The template's default CR, named after the Manifest unless it has a name, in kyma-system unless cluster-scoped. */
function defaultCr(template: ModuleTemplate, manifest: string): Record<string, unknown> | null {
  const data = template.spec?.data;
  if (!data?.kind) return null;
  const copy = structuredClone(data);
  const clusterScoped = template.metadata.annotations?.[ANNOTATION.isClusterScoped]?.toLowerCase() === 'true';
  const metadata = { ...copy.metadata, name: copy.metadata?.name || manifest };
  if (clusterScoped) delete metadata.namespace;
  else metadata.namespace = copy.metadata?.namespace || REMOTE_NAMESPACE;
  return { ...copy, metadata };
}
