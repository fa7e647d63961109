import type { Condition, CustomResourcePolicy, LastOperation, Resource, State, TrackingObject } from './objects.ts';

export interface KymaModule {
  name: string;
  channel?: string;
  /** Pins the module to this version whatever its channel says (ADR 38); excludes `channel`. */
  version?: string;
  /** A downgrade to exactly this version is allowed (ADR 38); any other lower version stays refused. */
  allowDowngradeTo?: string;
  controller?: string;
  customResourcePolicy?: CustomResourcePolicy;
  managed?: boolean;
  /** CRDs an upgrade may prune although custom resources of them exist (they go with them; issue 34). */
  allowCrdPrune?: string[];
}

export interface KymaSpec {
  channel: string;
  skipMaintenanceWindows?: boolean;
  modules?: KymaModule[];
}

/** Where a module stands after template resolution, written by resolve-template: our addition to upstream's schema,
 * which keeps it only in memory (ADR 5). */
export interface ModuleResolution {
  state: 'Resolved' | 'Error' | 'Warning';
  message?: string;
  /** The version the channel asks for (also when a downgrade was refused). */
  version?: string;
  /** Resolution refused the module for this Kyma (visibility): its Manifest must go. */
  notAllowed?: boolean;
  /** The module's settings from the effective spec (the runtime's Kyma once it exists). */
  customResourcePolicy?: 'CreateAndDelete' | 'Ignore';
  managed?: boolean;
  /** spec.modules[].allowCrdPrune, as resolved. */
  allowCrdPrune?: string[];
  /** The new version waits for the runtime's maintenance window; the installed one stays. */
  maintenance?: boolean;
  /** The module is pinned to `version` by `spec.modules[].version` (ADR 38); channel moves do not change it. */
  pinned?: boolean;
  /** The channel this resolution followed, when the entry keeps another (a refused downgrade, a maintenance wait). */
  channel?: string;
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

/** Where resolve-template took the module list from (our addition): the runtime's Kyma, or the KCP spec before it exists. */
export interface SpecSource {
  from: 'runtime' | 'kcp';
  channel: string;
  /** The runtime Kyma's metadata.generation the list was taken from: an instance whose memo of the runtime Kyma has
   * another generation reads it again (several instances of resolve-template, ADR 43). */
  generation?: number;
  /** A digest of the Kyma's own inputs (generation, labels, annotations, finalizers) this resolution was made from: an
   * update event whose Kyma still has them is not resolved again (ADR 66). */
  inputs?: string;
}

export interface KymaStatus {
  state?: Exclude<State, 'Unmanaged'>;
  specSource?: SpecSource;
  activeChannel?: string;
  lastOperation?: LastOperation;
  conditions?: Condition[];
  modules?: ModuleStatus[];
  /** The traceparent of the call that last wrote this status (ADR 20; not in upstream's schema). */
  lastTrace?: string;
}

export type Kyma = Resource<KymaSpec, KymaStatus>;

export const isManaged = (module: KymaModule) => module.managed !== false;

/** The modules the Kyma wants, as resolve-template recorded them from the effective spec (runtime Kyma or KCP); a pinned
 * module comes back with its `version` and without the `none` its entry records as channel (ADR 38). */
export function effectiveModules(kyma: Kyma): KymaModule[] {
  return (kyma.status?.modules ?? []).flatMap((m) =>
    m.resolution
      ? [
          {
            name: m.name,
            ...(m.channel && !m.resolution.pinned ? { channel: m.channel } : {}),
            ...(m.resolution.customResourcePolicy ? { customResourcePolicy: m.resolution.customResourcePolicy } : {}),
            ...(m.resolution.managed === false ? { managed: false } : {}),
            ...(m.resolution.allowCrdPrune?.length ? { allowCrdPrune: m.resolution.allowCrdPrune } : {}),
            ...(m.resolution.pinned && m.resolution.version ? { version: m.resolution.version } : {}),
          },
        ]
      : [],
  );
}

/** The runtime could not be used at aggregate-status's last pass (unreachable, or its kubeconfig unusable): the Kyma is
 * Error with `CRDsSync` Unknown and `Modules` False, both naming the runtime (functions/aggregate-status/decide.ts). */
export function runtimeUnreachable(kyma: Kyma): boolean {
  const of = (type: string) => kyma.status?.conditions?.find((c) => c.type === type);
  const crds = of('CRDsSync');
  const modules = of('Modules');
  return (
    kyma.status?.state === 'Error' &&
    crds?.status === 'Unknown' &&
    modules?.status === 'False' &&
    Boolean(crds.message) &&
    crds.message === modules.message
  );
}
