import type { Condition, CustomResourcePolicy, LastOperation, ManagerRef, Resource, State } from './objects.ts';
import { ANNOTATION } from './vocabulary.ts';

export interface ImageSpec {
  repo: string;
  name: string;
  ref: string;
  type: 'oci-ref' | 'oci-dir';
}

/** A Helm chart of a Manifest (seed 004): from a chart repository, or packaged (`.tgz`) as a layer in the registry. */
export type ChartSource =
  | { type: 'helm-chart'; chartName: string; url: string; version?: string }
  | { type: 'oci-ref'; repo: string; name: string; ref: string };

/** One chart install of `spec.installs[]`; `name` is the Helm release name and the key of its config entry. */
export interface ChartInstall {
  name: string;
  source: ChartSource;
}

export interface ManifestSpec {
  /** The raw-manifest layer (upstream v1beta2); absent when the module is made of charts (`installs`). */
  install?: { name: string; source: ImageSpec };
  /** Helm charts rendered with the real Helm engine (ADR 22); `config` holds their values, `crds` CRDs applied first. */
  installs?: ChartInstall[];
  /** Values and set flags per chart install: an oci-ref layer (YAML, see ADR 22). */
  config?: ImageSpec;
  /** CRDs applied, and established, before the charts' objects: an oci-ref layer (YAML stream). */
  crds?: ImageSpec;
  resource?: Record<string, unknown> | null;
  customResourcePolicy?: CustomResourcePolicy;
  version?: string;
  localizedImages?: string[];
  manager?: ManagerRef;
  remote?: boolean;
}

/** A resource applied to the runtime, as recorded in `status.synced`. */
export interface SyncedResource {
  group: string;
  version: string;
  kind: string;
  name: string;
  namespace: string;
}

export interface ManifestStatus {
  state?: State;
  conditions?: Condition[];
  lastOperation?: LastOperation;
  synced?: SyncedResource[];
  /** The traceparent of the call that last wrote this status (ADR 20; not in upstream's schema). */
  lastTrace?: string;
  /** `user` when a call in the user lane wrote this status (ADR 72; not in upstream's schema). */
  lastLane?: 'user';
}

export type Manifest = Resource<ManifestSpec, ManifestStatus>;

export const syncedId = (r: SyncedResource) => `${r.namespace}/${r.name}/${r.group}/${r.version}/${r.kind}`;

/** A synced resource as people read it: `<Kind> <namespace>/<name>`. */
export const syncedText = (r: SyncedResource) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** `managed: false` in the Kyma: render-manifest marks the Manifest, apply-remote lets go of the module's objects. */
export const isUnmanaged = (m: Pick<Manifest, 'metadata'>): boolean =>
  m.metadata.annotations?.[ANNOTATION.isUnmanaged] === 'true';
