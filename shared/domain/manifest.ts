import type { Condition, CustomResourcePolicy, LastOperation, ManagerRef, Resource, State } from './objects.ts';

export interface ImageSpec {
  repo: string;
  name: string;
  ref: string;
  type: 'oci-ref' | 'oci-dir';
}

export interface ManifestSpec {
  install: { name: string; source: ImageSpec };
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
}

export type Manifest = Resource<ManifestSpec, ManifestStatus>;

export const syncedId = (r: SyncedResource) => `${r.namespace}/${r.name}/${r.group}/${r.version}/${r.kind}`;
