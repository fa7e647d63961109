// Test builders: the custom resources tests start from, each with only what a test says differently.
import type { Kyma, KymaModule, KymaStatus } from '../shared/core/kyma.ts';
import type { Manifest, ManifestSpec, ManifestStatus } from '../shared/core/manifest.ts';
import type { ObjectMeta, State } from '../shared/core/objects.ts';
import { templateName, type ModuleTemplate, type ModuleTemplateSpec } from '../shared/core/templates.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL, MANAGED_BY_KCP } from '../shared/core/vocabulary.ts';

/** The metadata a test may set; `deleting` gives a deletionTimestamp. */
export interface Meta {
  name?: string;
  namespace?: string;
  /** Labels on top of the builder's own; one set to `undefined` drops a label the builder sets (no Kyma). */
  labels?: Record<string, string | undefined>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  deleting?: boolean;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string;
}

/** When a `deleting` object's deletion began. */
export const DELETED_AT = '2026-11-22T12:00:00Z';

function metadataOf(name: string, parts: Meta, labels: Record<string, string> = {}): ObjectMeta {
  const { deleting, labels: own, ...rest } = parts;
  const all = Object.fromEntries(
    Object.entries({ ...labels, ...own }).filter((label): label is [string, string] => label[1] !== undefined),
  );
  return {
    name,
    namespace: KCP_NAMESPACE,
    ...rest,
    ...(Object.keys(all).length ? { labels: all } : {}),
    ...(deleting ? { deletionTimestamp: DELETED_AT } : {}),
  };
}

export interface KymaParts extends Meta {
  channel?: string;
  /** Module names, or whole entries of `spec.modules`. */
  modules?: (string | KymaModule)[];
  status?: KymaStatus;
}

/** Kyma `k1` in kcp-system on channel regular, wanting `modules`. */
export function aKyma(parts: KymaParts = {}): Kyma {
  const { channel = 'regular', modules, status, ...meta } = parts;
  return {
    apiVersion: API_VERSION,
    kind: 'Kyma',
    metadata: metadataOf('k1', meta),
    spec: { channel, ...(modules ? { modules: modules.map((m) => (typeof m === 'string' ? { name: m } : m)) } : {}) },
    ...(status ? { status } : {}),
  };
}

export interface ManifestParts extends Meta {
  kyma?: string;
  module?: string;
  version?: string;
  state?: State;
  operation?: string;
  spec?: Partial<ManifestSpec>;
  status?: Partial<ManifestStatus>;
}

/** The Manifest render-manifest writes for module `sample` 1.0.0 of Kyma `k1` (named `<kyma>-<module>`). */
export function aManifest(parts: ManifestParts = {}): Manifest {
  const { kyma = 'k1', module = 'sample', version = '1.0.0', state, operation, spec, status, ...meta } = parts;
  const labels = { [LABEL.kymaName]: kyma, [LABEL.moduleName]: module, [LABEL.managedBy]: MANAGED_BY_KCP };
  const reported =
    state || operation !== undefined || status
      ? { ...(state ? { state } : {}), ...(operation !== undefined ? { lastOperation: { operation } } : {}), ...status }
      : undefined;
  return {
    apiVersion: API_VERSION,
    kind: 'Manifest',
    metadata: metadataOf(`${kyma}-${module}`, meta, labels),
    spec: {
      version,
      customResourcePolicy: 'CreateAndDelete',
      install: {
        name: 'raw-manifest',
        source: { type: 'oci-ref', repo: 'registry.local/component-descriptors', name: module, ref: 'sha256:0' },
      },
      ...spec,
    },
    ...(reported ? { status: reported as ManifestStatus } : {}),
  };
}

export interface TemplateParts extends Meta {
  module?: string;
  version?: string;
  spec?: Partial<ModuleTemplateSpec>;
}

/** ModuleTemplate `<module>-<version>` (`sample-1.0.0`) in kcp-system, labelled with its module. */
export function aTemplate(parts: TemplateParts = {}): ModuleTemplate {
  const { module = 'sample', version = '1.0.0', spec, ...meta } = parts;
  return {
    apiVersion: API_VERSION,
    kind: 'ModuleTemplate',
    metadata: metadataOf(templateName(module, version), meta, { [LABEL.moduleName]: module }),
    spec: { moduleName: module, version, ...spec },
  };
}
