// What a Manifest's Helm charts are and how each is rendered (ADR 22): validation of `spec.installs[]`, the config
// layer (values and set flags per install), and the `helm template` command line. Pure.
import { parse, parseAllDocuments, stringify } from 'yaml';
import type { ChartInstall, ChartSource } from '../core/manifest.ts';
import { REMOTE_NAMESPACE } from '../core/vocabulary.ts';

/** Helm's own limit for release names (DNS-1123 label, at most 53 characters). */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]{0,51}[a-z0-9])?$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const CHART_NAME = /^[A-Za-z0-9][-A-Za-z0-9_.]*$/;
const VERSION = /^[-A-Za-z0-9_.+~^<>=*| ,]{1,64}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const MAX_INSTALLS = 20;
const MAX_SET_FLAGS = 200;

/** How one chart install is rendered: release name and namespace, values, set flags. */
export interface ChartRender {
  install: ChartInstall;
  namespace: string;
  values: Record<string, unknown>;
  set: string[];
  /** The release namespace is part of the module (created with it, removed with it), as `--create-namespace`. */
  createNamespace: boolean;
}

/** PURE. Why `installs` cannot be rendered ('' when they can): names, sources, registry. */
export function installsProblem(installs: readonly ChartInstall[], registryBase: string): string {
  if (installs.length > MAX_INSTALLS)
    return `spec.installs has ${installs.length} charts; at most ${MAX_INSTALLS} are accepted`;
  const seen = new Set<string>();
  for (const [i, install] of installs.entries()) {
    const at = `spec.installs[${i}]`;
    if (typeof install?.name !== 'string' || !RELEASE_NAME.test(install.name))
      return `${at}.name must be a Helm release name (lowercase letters, digits and '-', at most 53), got ${JSON.stringify(install?.name)}`;
    if (seen.has(install.name)) return `${at}.name ${install.name} is used twice`;
    seen.add(install.name);
    const problem = sourceProblem(install.source, registryBase);
    if (problem) return `${at}.source: ${problem}`;
  }
  return '';
}

function sourceProblem(source: ChartSource | undefined, registryBase: string): string {
  if (source?.type === 'helm-chart') {
    if (typeof source.chartName !== 'string' || !CHART_NAME.test(source.chartName))
      return `chartName must be a chart name, got ${JSON.stringify(source.chartName)}`;
    if (source.version !== undefined && (typeof source.version !== 'string' || !VERSION.test(source.version)))
      return 'version must be a chart version or range';
    return repositoryProblem(source.url);
  }
  if (source?.type === 'oci-ref') {
    if (source.repo !== registryBase)
      return `repo ${String(source.repo)} is not the configured module registry ${registryBase}`;
    if (typeof source.name !== 'string' || !source.name)
      return 'name (the component holding the chart layer) is missing';
    return typeof source.ref === 'string' && DIGEST.test(source.ref)
      ? ''
      : "ref must be the chart layer's sha256 digest";
  }
  return `type must be helm-chart or oci-ref, got ${JSON.stringify((source as { type?: unknown } | undefined)?.type)}`;
}

/** A chart repository URL: http(s), no credentials in it (they would be stored in the spec and shown in errors). */
function repositoryProblem(url: unknown): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return "url must be the chart repository's http(s) URL";
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `url must be http(s), got ${parsed.protocol}`;
  if (parsed.username || parsed.password) return 'url must not carry credentials';
  return '';
}

interface ConfigEntry {
  name?: unknown;
  values?: unknown;
  set?: unknown;
  namespace?: unknown;
  createNamespace?: unknown;
}

/** PURE. The renders of `installs` with the config layer's entries (YAML `configs: [{name, values, set, namespace,
 * createNamespace}]`; no layer = no values, namespace kyma-system). Throws with a message naming the bad entry. */
export function chartRenders(installs: readonly ChartInstall[], configYaml: string | undefined): ChartRender[] {
  const entries = configEntries(configYaml);
  const unknown = [...entries.keys()].find((name) => !installs.some((i) => i.name === name));
  if (unknown) throw new Error(`config layer: entry ${unknown} names no chart of spec.installs`);
  return installs.map((install) => {
    const entry = entries.get(install.name) ?? {};
    const namespace = entry.namespace ?? REMOTE_NAMESPACE;
    if (typeof namespace !== 'string' || !NAMESPACE.test(namespace))
      throw new Error(`config layer: ${install.name}.namespace must be a namespace name`);
    const values = entry.values ?? {};
    if (typeof values !== 'object' || values === null || Array.isArray(values))
      throw new Error(`config layer: ${install.name}.values must be a mapping`);
    const set = entry.set ?? [];
    if (
      !Array.isArray(set) ||
      set.length > MAX_SET_FLAGS ||
      !set.every((f) => typeof f === 'string' && /^[^=\n]+=[^\n]*$/.test(f))
    ) {
      throw new Error(
        `config layer: ${install.name}.set must be a list of key=value strings (at most ${MAX_SET_FLAGS})`,
      );
    }
    const createNamespace = entry.createNamespace ?? false;
    if (typeof createNamespace !== 'boolean')
      throw new Error(`config layer: ${install.name}.createNamespace must be true or false`);
    return { install, namespace, values: values as Record<string, unknown>, set: set as string[], createNamespace };
  });
}

function configEntries(yaml: string | undefined): Map<string, ConfigEntry> {
  if (yaml === undefined) return new Map();
  let doc: { configs?: unknown } | null;
  try {
    doc = parse(yaml, { maxAliasCount: 100 }) as { configs?: unknown } | null;
  } catch (error) {
    throw new Error(
      `config layer is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      { cause: error },
    );
  }
  const configs = doc?.configs ?? [];
  if (!Array.isArray(configs)) throw new Error('config layer: configs must be a list');
  const entries = new Map<string, ConfigEntry>();
  for (const entry of configs as ConfigEntry[]) {
    if (typeof entry?.name !== 'string') throw new Error('config layer: every entry of configs needs a name');
    entries.set(entry.name, entry);
  }
  return entries;
}

/** PURE. `helm template` arguments for a render whose chart is `chart` (a local .tgz, or a name in `--repo`). */
export function templateArgs(
  render: ChartRender,
  chart: { file: string } | { name: string; repo: string; version?: string },
  valuesFile: string | undefined,
): string[] {
  const source =
    'file' in chart
      ? [chart.file]
      : [chart.name, '--repo', chart.repo, ...(chart.version ? ['--version', chart.version] : [])];
  return [
    'template',
    render.install.name,
    ...source,
    '--namespace',
    render.namespace,
    '--include-crds',
    '--skip-tests',
    ...(valuesFile ? ['--values', valuesFile] : []),
    ...render.set.flatMap((flag) => ['--set', flag]),
  ];
}

/** PURE. Helm's output with every object that names no namespace put into the release's (as `helm install` would);
 * cluster-scoped kinds lose it again when the objects are prepared for the target. Empty documents are dropped. With
 * `createNamespace` the namespace itself comes first. */
export function inReleaseNamespace(yaml: string, namespace: string, createNamespace = false): string {
  const docs = parseAllDocuments(yaml);
  if (!Array.isArray(docs)) throw new Error('helm template did not render a YAML stream');
  const objects = docs
    .map((doc, i) => {
      if (doc.errors[0])
        throw new Error(`helm template rendered invalid YAML in document ${i + 1}: ${doc.errors[0].message}`);
      const object = doc.toJS({ maxAliasCount: 100 }) as { metadata?: { namespace?: string } } | null;
      if (!object || typeof object !== 'object') return '';
      if (object.metadata && !object.metadata.namespace) object.metadata.namespace = namespace;
      return stringify(object);
    })
    .filter(Boolean);
  const own = createNamespace
    ? [stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })]
    : [];
  return [...own, ...objects].join('---\n');
}

/** PURE. Whether a chart render can be reused for good: a packaged chart (digest) or an exact repository version. */
export const isPinned = (source: ChartSource): boolean =>
  source.type === 'oci-ref' || /^v?\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/.test(source.version ?? '');
