import type { KubeClient } from '../../shared/kube/client.ts';
import type { RegistryClient } from '../../shared/oci/registry.ts';
import { templateName } from '../../shared/core/templates.ts';
import { ANNOTATION, API_VERSION, FIELD_MANAGER, LABEL } from '../../shared/core/vocabulary.ts';
import { packageModule, pushModule } from './package.ts';
import { sampleComponent, sampleDefaultCr, sampleRawManifest, type SampleModuleOptions } from './sample.ts';

export interface PublishOptions extends SampleModuleOptions {
  namespace: string;
  beta?: boolean;
  internal?: boolean;
  /** The template's spec.requiresDowntime: upgrades to this version wait for a maintenance window. */
  requiresDowntime?: boolean;
  /** Image references recorded as `ociArtifact` resources of the component (→ Manifest.spec.localizedImages). */
  images?: string[];
  /** The repository context the descriptor names (`host[:port][/path]`); default the registry it is pushed to. */
  registryBaseUrl?: string;
  /** The descriptor's componentNameMapping (default `urlPath`; tests of descriptors made elsewhere set others). */
  componentNameMapping?: string;
}

/** Publishes a sample module version: the OCM component in the registry and its ModuleTemplate in the KCP. */
export async function publishSampleModule(
  registry: RegistryClient,
  kcp: KubeClient,
  opts: PublishOptions,
): Promise<void> {
  const componentName = sampleComponent(opts.name);
  const defaultCr = sampleDefaultCr(opts.name, opts.apiVersions?.at(-1));
  await pushModule(
    registry,
    packageModule({
      componentName,
      version: opts.version,
      rawManifest: sampleRawManifest(opts),
      ...(opts.withoutDefaultCr ? {} : { defaultCr }),
      ...(opts.images ? { images: opts.images } : {}),
      registryBaseUrl: opts.registryBaseUrl ?? registry.host,
      ...(opts.componentNameMapping ? { componentNameMapping: opts.componentNameMapping } : {}),
    }),
  );
  const labels: Record<string, string> = { [LABEL.moduleName]: opts.name };
  const annotations = opts.clusterScoped ? { [ANNOTATION.isClusterScoped]: 'true' } : {};
  if (opts.beta) labels[LABEL.beta] = 'true';
  if (opts.internal) labels[LABEL.internal] = 'true';
  await kcp.apply(
    {
      apiVersion: API_VERSION,
      kind: 'ModuleTemplate',
      metadata: { name: templateName(opts.name, opts.version), namespace: opts.namespace, labels, annotations },
      spec: {
        moduleName: opts.name,
        version: opts.version,
        ...(opts.withoutDefaultCr ? {} : { data: defaultCr }),
        ...(opts.requiresDowntime ? { requiresDowntime: true } : {}),
        manager: {
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'kyma-system',
          name: `${opts.name}-manager`,
        },
      },
    },
    FIELD_MANAGER.lifecycleManager,
  );
}

/** Sets a module's ModuleReleaseMeta: which version each channel gets. */
export async function setReleaseChannels(
  kcp: KubeClient,
  namespace: string,
  name: string,
  channels: { channel: string; version: string }[],
): Promise<void> {
  await kcp.apply(
    {
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      metadata: { name, namespace },
      spec: { moduleName: name, ocmComponentName: sampleComponent(name), channels },
    },
    FIELD_MANAGER.lifecycleManager,
  );
}

/** Makes a module mandatory: installed on every Kyma at `version`. */
export async function setMandatoryVersion(
  kcp: KubeClient,
  namespace: string,
  name: string,
  version: string,
): Promise<void> {
  await kcp.apply(
    {
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      metadata: { name, namespace },
      spec: { moduleName: name, ocmComponentName: sampleComponent(name), mandatory: { version } },
    },
    FIELD_MANAGER.lifecycleManager,
  );
}
