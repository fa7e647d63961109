import { stringify } from 'yaml';
import { CHART_MEDIA_TYPE, CHART_RESOURCE } from '../../shared/core/descriptors.ts';
import { DESCRIPTOR_FILE, DESCRIPTOR_LAYER, OCM_CONFIG } from '../../shared/oci/component.ts';
import { OCI_MANIFEST, sha256Digest, type OciDescriptor } from '../../shared/oci/manifest.ts';
import { componentRepository, ocmTag } from '../../shared/oci/reference.ts';
import type { RegistryClient } from '../../shared/oci/registry.ts';
import { writeTar } from '../../shared/oci/tar.ts';

export interface ModuleSource {
  /** OCM component name, e.g. `kyma-project.io/module/sample`. */
  componentName: string;
  version: string;
  /** Multi-document YAML of the module's resources; or, for a module made of a Helm chart, `chart`. */
  rawManifest?: string;
  chart?: ChartContent;
  defaultCr?: object;
  images?: string[];
  /** Base URL recorded in the descriptor's repository context (`host[:port][/path]`). */
  registryBaseUrl: string;
  /** The repository context's componentNameMapping; default `urlPath` (where the component version is pushed). */
  componentNameMapping?: string;
}

/** A module made of a Helm chart (ADR 37): the packaged chart, its config layer (`configs: [{name, values}]`) and CRDs. */
export interface ChartContent {
  archive: Uint8Array;
  config?: string;
  crds?: string;
}

/** A local blob of the component version: one more layer of its OCI manifest. */
export interface LocalBlob {
  resourceName: string;
  /** The OCM resource type (`directoryTree` for tarred YAML, `helmChart`, `blob`). */
  resourceType: string;
  fileName: string;
  mediaType: string;
  digest: string;
  bytes: Uint8Array;
}

/** An OCM component version in memory, ready to push. */
export interface ModulePackage {
  componentName: string;
  version: string;
  tag: string;
  descriptorYaml: string;
  blobs: LocalBlob[];
}

export interface PushedModule {
  repository: string;
  tag: string;
  manifestDigest: string;
  rawManifestDigest: string;
  /** The packaged chart's layer, for a module made of a Helm chart ('' otherwise). */
  chartDigest: string;
}

const TAR = 'application/x-tar';
const PROVIDER = 'kyma-project.io';

/**
 * Builds the component version the way modulectl does: raw-manifest and default-cr as tarred local blobs; a Helm
 * chart module has the chart, its config and its CRDs as local blobs of their own media types instead of raw-manifest.
 */
export function packageModule(source: ModuleSource): ModulePackage {
  componentRepository(source.componentName); // throws for names that cannot be a repository path
  const tag = ocmTag(source.version);
  const blobs = installBlobs(source);
  if (source.defaultCr) blobs.push(localBlob('default-cr', 'default-cr.yaml', stringify(source.defaultCr)));
  const descriptor = {
    meta: { schemaVersion: 'v2' },
    component: {
      name: source.componentName,
      version: source.version,
      provider: PROVIDER,
      labels: [],
      repositoryContexts: [
        {
          type: 'OCIRegistry',
          baseUrl: source.registryBaseUrl,
          componentNameMapping: source.componentNameMapping ?? 'urlPath',
        },
      ],
      sources: [],
      componentReferences: [],
      resources: [
        ...blobs.map((b) => localResource(b, source.version)),
        ...imageResources(source.images ?? [], source.version),
      ],
    },
  };
  return {
    componentName: source.componentName,
    version: source.version,
    tag,
    descriptorYaml: stringify(descriptor),
    blobs,
  };
}

function installBlobs({ rawManifest, chart }: ModuleSource): LocalBlob[] {
  if ((rawManifest === undefined) === (chart === undefined))
    throw new Error('a module is made of a raw manifest or of a Helm chart (exactly one)');
  if (rawManifest !== undefined) return [localBlob('raw-manifest', 'raw-manifest.yaml', rawManifest)];
  const text = (t: string) => new TextEncoder().encode(t);
  return [
    blob(
      CHART_RESOURCE.chart,
      'helmChart',
      'helm-chart.tgz',
      CHART_MEDIA_TYPE.chart,
      chart?.archive ?? new Uint8Array(),
    ),
    ...(chart?.config
      ? [blob(CHART_RESOURCE.config, 'blob', 'chart-config.yaml', CHART_MEDIA_TYPE.config, text(chart.config))]
      : []),
    ...(chart?.crds
      ? [blob(CHART_RESOURCE.crds, 'blob', 'chart-crds.yaml', CHART_MEDIA_TYPE.crds, text(chart.crds))]
      : []),
  ];
}

function localBlob(resourceName: string, file: string, text: string): LocalBlob {
  return blob(
    resourceName,
    'directoryTree',
    `${resourceName}.tar`,
    TAR,
    writeTar([{ path: file, data: new TextEncoder().encode(text) }]),
  );
}

function blob(
  resourceName: string,
  resourceType: string,
  fileName: string,
  mediaType: string,
  bytes: Uint8Array,
): LocalBlob {
  return { resourceName, resourceType, fileName, mediaType, digest: sha256Digest(bytes), bytes };
}

function localResource(blob: LocalBlob, version: string) {
  return {
    name: blob.resourceName,
    type: blob.resourceType,
    relation: 'local',
    version,
    access: {
      type: 'localBlob',
      localReference: blob.digest,
      mediaType: blob.mediaType,
      referenceName: blob.resourceName,
    },
  };
}

/** `ociArtifact` resources named after the image's last path segment (numbered when names repeat). */
function imageResources(images: string[], version: string) {
  const seen = new Map<string, number>();
  return images.map((imageReference) => {
    const [path = '', tag] = imageReference.split('@')[0]?.split(/:(?=[^/]*$)/) ?? [];
    const base = path.split('/').at(-1) || 'image';
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return {
      name: count === 1 ? base : `${base}-${count}`,
      type: 'ociArtifact',
      relation: 'external',
      version: tag ?? version,
      access: { type: 'ociArtifact', imageReference },
    };
  });
}

/**
 * Pushes the component version to `component-descriptors/<componentName>:<tag>`: local blobs, the descriptor
 * layer, the OCM config and the OCI image manifest. Layers carry `software.ocm.artifact` and, so that
 * `oras pull` writes them as files, `org.opencontainers.image.title`.
 */
export async function pushModule(client: RegistryClient, pkg: ModulePackage): Promise<PushedModule> {
  const repository = componentRepository(pkg.componentName);
  const descriptorTar = writeTar([{ path: DESCRIPTOR_FILE, data: new TextEncoder().encode(pkg.descriptorYaml) }]);
  const descriptorLayer = { ...(await client.pushBlob(repository, descriptorTar)), mediaType: DESCRIPTOR_LAYER };
  const layers: OciDescriptor[] = [withoutUploaded(descriptorLayer)];
  for (const blob of pkg.blobs) {
    const pushed = await client.pushBlob(repository, blob.bytes);
    layers.push({
      mediaType: blob.mediaType,
      digest: pushed.digest,
      size: pushed.size,
      annotations: {
        'software.ocm.artifact': JSON.stringify([
          { identity: { name: blob.resourceName, version: pkg.version }, kind: 'resource' },
        ]),
        'org.opencontainers.image.title': blob.fileName,
      },
    });
  }
  const configBytes = new TextEncoder().encode(
    JSON.stringify({ componentDescriptorLayer: withoutUploaded(descriptorLayer) }),
  );
  const config = await client.pushBlob(repository, configBytes);
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { ...withoutUploaded(config), mediaType: OCM_CONFIG },
    layers,
  };
  const manifestDigest = await client.pushManifest(repository, pkg.tag, JSON.stringify(manifest), OCI_MANIFEST);
  const digestOf = (name: string) => pkg.blobs.find((b) => b.resourceName === name)?.digest ?? '';
  return {
    repository,
    tag: pkg.tag,
    manifestDigest,
    rawManifestDigest: digestOf('raw-manifest'),
    chartDigest: digestOf(CHART_RESOURCE.chart),
  };
}

function withoutUploaded(d: OciDescriptor & { uploaded: boolean }): OciDescriptor {
  return { mediaType: d.mediaType, digest: d.digest, size: d.size };
}
