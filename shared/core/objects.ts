// The lifecycle CRs as TypeScript types (operator.kyma-project.io/v1beta2), only the fields we read or write.

export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface Resource<Spec = unknown, Status = unknown> {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: Spec;
  status?: Status;
}

export type State = 'Ready' | 'Processing' | 'Error' | 'Warning' | 'Deleting' | 'Unmanaged';
export type CustomResourcePolicy = 'CreateAndDelete' | 'Ignore';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

export interface LastOperation {
  operation: string;
  lastUpdateTime?: string;
}

/** A reference to an object as upstream's "tracking object". */
export interface TrackingObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; generation?: number };
}

export interface GroupVersionKind {
  group?: string;
  version: string;
  kind: string;
}

export interface ManagerRef extends GroupVersionKind {
  name: string;
  namespace?: string;
}
