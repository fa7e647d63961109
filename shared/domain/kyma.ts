import type { Condition, CustomResourcePolicy, LastOperation, Resource, State, TrackingObject } from './objects.ts';

export interface KymaModule {
  name: string;
  channel?: string;
  controller?: string;
  customResourcePolicy?: CustomResourcePolicy;
  managed?: boolean;
}

export interface KymaSpec {
  channel: string;
  skipMaintenanceWindows?: boolean;
  modules?: KymaModule[];
}

/**
 * Where a module stands after template resolution. Written by resolve-template (our addition to the upstream
 * schema: upstream keeps this only in memory; here two functions share the status list, each owning its fields).
 */
export interface ModuleResolution {
  state: 'Resolved' | 'Error' | 'Warning';
  message?: string;
  /** The version the channel asks for (also when a downgrade was refused). */
  version?: string;
  /** Resolution refused the module for this Kyma (visibility): its Manifest must go. */
  notAllowed?: boolean;
}

export interface ModuleStatus {
  name: string;
  channel?: string;
  ocmComponentName?: string;
  fqdn?: string;
  version?: string;
  state?: State;
  message?: string;
  maintenance?: boolean;
  manifest?: TrackingObject;
  template?: TrackingObject;
  resource?: TrackingObject;
  resolution?: ModuleResolution;
}

export interface KymaStatus {
  state?: Exclude<State, 'Unmanaged'>;
  activeChannel?: string;
  lastOperation?: LastOperation;
  conditions?: Condition[];
  modules?: ModuleStatus[];
}

export type Kyma = Resource<KymaSpec, KymaStatus>;
