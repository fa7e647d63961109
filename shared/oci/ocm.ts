import { createHash } from 'node:crypto';
import { parseDocument } from 'yaml';
import {
  CHART_MEDIA_TYPE,
  CHART_RESOURCE,
  type ModuleContent,
  type ModuleInstall,
  type ModuleLayer,
} from '../core/descriptors.ts';
import { badContent } from './errors.ts';

/** Where a component version is stored (OCM `repositoryContexts` entry). */
export interface RepositoryContext {
  type: string;
  baseUrl?: string;
  subPath?: string;
  componentNameMapping?: string;
}

export interface ResourceAccess {
  type: string;
  [field: string]: unknown;
}

export interface ComponentResource {
  name: string;
  type: string;
  version?: string;
  relation?: string;
  access: ResourceAccess;
}

/** The parts of an OCM component descriptor the lifecycle manager reads. */
export interface ComponentDescriptor {
  name: string;
  version: string;
  repositoryContexts: RepositoryContext[];
  resources: ComponentResource[];
}

const MAX_ALIASES = 50;
type Fields = Record<string, unknown>;

/** Parses a component descriptor (schema v2, or v3alpha1); YAML alias bombs and malformed documents are rejected. */
export function parseComponentDescriptor(yaml: string): ComponentDescriptor {
  const doc = parseDocument(yaml, { uniqueKeys: true });
  const [error] = doc.errors;
  if (error) throw badContent(`component descriptor is not valid YAML: ${error.message}`);
  let root: unknown;
  try {
    root = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    throw badContent(`component descriptor rejected: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isFields(root)) throw badContent('component descriptor is not a YAML mapping');
  return isFields(root.meta) && root.meta.schemaVersion === 'v2' ? fromV2(root) : fromV3(root);
}

function fromV2(root: Fields): ComponentDescriptor {
  const component = root.component;
  if (!isFields(component)) throw badContent('component descriptor v2 has no "component"');
  return build(component.name, component.version, component.repositoryContexts, component.resources);
}

function fromV3(root: Fields): ComponentDescriptor {
  const { apiVersion, metadata, spec } = root;
  if (typeof apiVersion !== 'string' || !apiVersion.startsWith('ocm.software/v3') || !isFields(metadata)) {
    throw badContent(
      'unsupported component descriptor schema (expected meta.schemaVersion v2 or ocm.software/v3alpha1)',
    );
  }
  return build(metadata.name, metadata.version, root.repositoryContexts, isFields(spec) ? spec.resources : []);
}

function build(name: unknown, version: unknown, contexts: unknown, resources: unknown): ComponentDescriptor {
  if (typeof name !== 'string' || !name) throw badContent('component descriptor has no component name');
  if (typeof version !== 'string' || !version) throw badContent(`component descriptor ${name} has no version`);
  return {
    name,
    version,
    repositoryContexts: listOf(contexts, 'repositoryContexts').map(repositoryContext),
    resources: listOf(resources, 'resources').map((r, i) => resource(r, `${name}:${version} resources[${i}]`)),
  };
}

function repositoryContext(entry: Fields): RepositoryContext {
  if (typeof entry.type !== 'string') throw badContent('repository context has no type');
  const context: RepositoryContext = { type: entry.type };
  if (typeof entry.baseUrl === 'string') context.baseUrl = entry.baseUrl;
  if (typeof entry.subPath === 'string') context.subPath = entry.subPath;
  if (typeof entry.componentNameMapping === 'string') context.componentNameMapping = entry.componentNameMapping;
  return context;
}

function resource(entry: Fields, where: string): ComponentResource {
  const { name, type, version, relation, access } = entry;
  if (typeof name !== 'string' || !name) throw badContent(`${where} has no name`);
  if (typeof type !== 'string') throw badContent(`${where} (${name}) has no type`);
  if (!isFields(access) || typeof access.type !== 'string') throw badContent(`${where} (${name}) has no access type`);
  return {
    name,
    type,
    access: { ...access, type: access.type },
    ...(typeof version === 'string' ? { version } : {}),
    ...(typeof relation === 'string' ? { relation } : {}),
  };
}

/** What a module installs from its component version (upstream `parse.go`): local blobs become layers
 * (`oci-dir` when tarred, else `oci-ref`), `ociArtifact` images become localized images, anything else fails;
 * the installed layer is the raw manifest or a Helm chart. */
export function moduleContent(descriptor: ComponentDescriptor): ModuleContent {
  const blobName = layerBlobName(descriptor);
  const layers: ModuleLayer[] = [];
  const localizedImages: string[] = [];
  for (const r of descriptor.resources) {
    const access = accessKind(r.access.type);
    if (access === 'localblob' || access === 'localociblob') layers.push(localLayer(descriptor, r, blobName));
    else if (access === 'ociartifact') localizedImages.push(imageReference(r));
    else if (access !== 'ociregistry') {
      throw badContent(
        `resource ${r.name} of ${descriptor.name}:${descriptor.version}: access type "${r.access.type}" not supported`,
      );
    }
  }
  return { install: installOf(descriptor, layers), layers, localizedImages };
}

/** The layer the module installs: `raw-manifest`, or a packaged Helm chart (`helm-chart`, with the optional
 * `chart-config` and `chart-crds` layers, ADR 37). A component with both, or neither, is refused. */
function installOf(descriptor: ComponentDescriptor, layers: ModuleLayer[]): ModuleInstall {
  const what = `component ${descriptor.name}:${descriptor.version}`;
  const find = (name: string) => layers.find((l) => l.name === name);
  const raw = find('raw-manifest');
  const chart = find(CHART_RESOURCE.chart);
  if (raw && chart)
    throw badContent(
      `${what} has both a raw-manifest and a ${CHART_RESOURCE.chart} resource; a module installs one of them`,
    );
  if (raw) return { ...raw, name: 'raw-manifest' };
  if (!chart) throw badContent(`${what} has no local raw-manifest or ${CHART_RESOURCE.chart} resource`);
  if (chart.type !== 'oci-ref')
    throw badContent(
      `${what}: resource ${CHART_RESOURCE.chart} must be a packaged chart (${CHART_MEDIA_TYPE.chart}), not a tar`,
    );
  const config = find(CHART_RESOURCE.config);
  const crds = find(CHART_RESOURCE.crds);
  return { ...chart, name: CHART_RESOURCE.chart, ...(config ? { config } : {}), ...(crds ? { crds } : {}) };
}

/** The registry host (`host[:port]`) of the descriptor's effective repository context — the last entry, as upstream
 * reads it; undefined when it names none. Lower case, without scheme or path. */
export function registryHostOf(descriptor: ComponentDescriptor): string | undefined {
  const baseUrl = descriptor.repositoryContexts.at(-1)?.baseUrl;
  if (!baseUrl) return undefined;
  return (
    baseUrl
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .split('/')[0]
      ?.toLowerCase() || undefined
  );
}

/** The name the local blobs are stored under, by the effective repository context's componentNameMapping (upstream
 * `getOCIRef`): the component name for `urlPath` (the default; undefined here), its SHA-256 hex for `sha256-digest`;
 * others are refused. */
function layerBlobName(descriptor: ComponentDescriptor): string | undefined {
  const mapping = descriptor.repositoryContexts.at(-1)?.componentNameMapping;
  if (mapping === undefined || mapping === 'urlPath') return undefined;
  if (mapping === 'sha256-digest') return createHash('sha256').update(descriptor.name, 'utf8').digest('hex');
  throw badContent(
    `component ${descriptor.name}:${descriptor.version}: repository context componentNameMapping ${JSON.stringify(mapping.slice(0, 40))} is not supported (the lifecycle manager reads urlPath and sha256-digest)`,
  );
}

/** `localBlob/v1` and `LocalBlob` name the same access type as `localBlob`. */
const accessKind = (type: string) => type.replace(/\/v1$/, '').toLowerCase();

function localLayer(descriptor: ComponentDescriptor, r: ComponentResource, blobName: string | undefined): ModuleLayer {
  const { localReference, mediaType } = r.access;
  if (typeof localReference !== 'string' || !/^sha256:[a-f0-9]{64}$/.test(localReference)) {
    throw badContent(`resource ${r.name} of ${descriptor.name}:${descriptor.version} has no sha256 localReference`);
  }
  const type = mediaType === 'application/x-tar' ? 'oci-dir' : 'oci-ref';
  return {
    name: r.name,
    type,
    ref: localReference,
    componentName: descriptor.name,
    ...(blobName === undefined ? {} : { blobName }),
  };
}

function imageReference(r: ComponentResource): string {
  const ref = r.access.imageReference;
  if (typeof ref !== 'string' || !ref) throw badContent(`resource ${r.name} has no imageReference`);
  return ref;
}

function listOf(value: unknown, field: string): Fields[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every(isFields))
    throw badContent(`component descriptor field ${field} is not a list of mappings`);
  return value;
}

const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
