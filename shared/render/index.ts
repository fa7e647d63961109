// The manifest library (ADR 23): install, check and uninstall a rendered module on a cluster for other operators, by
// the same code apply-remote runs. `import { connectCluster, installModule, checkModule, uninstallModule,
// renderChartModule } from 'kyma-lifecycle-functions/library'`; see docs/modules.md "The manifest library".
import { KubeConfig } from '../kube/kubeconfig.ts';
import { syncedId, type SyncedResource } from '../core/manifest.ts';
import { isCurrent, type Annotated } from '../core/current.ts';
import { FIELD_MANAGER } from '../core/vocabulary.ts';
import { withAppliedHash } from '../kube/apply-current.ts';
import { KubeClient } from '../kube/client.ts';
import { refOf } from '../kube/types.ts';
import { assertKubeconfigAllowed } from '../kube/kubeconfig-policy.ts';
import { execAllowlist } from '../kube/exec-allowlist.ts';
import { NotYetReadyError } from '../host/errors.ts';
import { moduleReadiness, type Readiness } from './readiness.ts';
import { podsToJudge } from './pods.ts';
import { parseModuleObjects, prepareForCluster, syncedOf, type RuntimeObject } from './render.ts';
import { removeObjects, syncObjects } from './sync.ts';
import { heldCrdMessage } from './crd-holders.ts';

export type { Readiness, RuntimeObject, SyncedResource };
export { parseModuleObjects };
/** Render step for modules made of a Helm chart (ADR 37): the chart's objects as a YAML stream for installModule. */
export { renderChartModule, type ChartModuleInput } from './helm-module.ts';

/** A cluster modules are installed on. */
export interface TargetCluster {
  readonly client: KubeClient;
}

/** The cluster of a kubeconfig (YAML text, current context); errors never quote it. Exec plugins run only when named in
 * `options.execCommands` (command and exact arguments, as LIFECYCLE_KUBECONFIG_EXEC_COMMANDS) and set only variables in
 * `options.execEnv`; auth-providers, local files and proxy-url are refused (ADR 31). */
export async function connectCluster(
  kubeconfig: string,
  options: { execCommands?: readonly string[]; execEnv?: readonly string[] } = {},
): Promise<TargetCluster> {
  assertKubeconfigAllowed(kubeconfig, execAllowlist(options.execCommands ?? [], options.execEnv ?? []));
  const kc = new KubeConfig();
  try {
    kc.loadFromString(kubeconfig);
  } catch {
    throw new Error('the kubeconfig is not usable (not a kubeconfig YAML)');
  }
  return { client: await KubeClient.from(kc) };
}

/** Says whether the module is usable, from its objects as the cluster returned them (with live status). */
export type ReadinessCheck = (applied: RuntimeObject[], cluster: TargetCluster) => Readiness | Promise<Readiness>;

/** A rendered module and how to judge it. */
export interface RenderedModule {
  /** Owner of the objects: they get `app.kubernetes.io/component: <name>` and the owned-by annotation `<namespace>/<name>`. */
  name: string;
  namespace?: string;
  /** The module: a YAML stream (a raw manifest, `helm template` output) or parsed objects. */
  manifest: string | RuntimeObject[];
  /** Custom resources installed with the module (e.g. its default CR), applied after the kinds they need exist. */
  customResources?: RuntimeObject[];
  /** Default: the first Deployment or StatefulSet must be rolled out; no workload = Ready. */
  readiness?: ReadinessCheck;
  /** Server-side apply field manager (default: the lifecycle manager's applier). */
  fieldManager?: string;
}

/** Where a module stands; `synced` is what to pass to the next install (pruning) and to uninstall. Warning: installed,
 * but a CRD it dropped is kept while custom resources use it (the reason names them). */
export interface ModuleState {
  state: Readiness['state'] | 'Warning';
  reason: string;
  synced: SyncedResource[];
}

/** Installs or upgrades the module: objects of `previous` it no longer has are removed first, then every object (and
 * custom resource) not already so is applied, then readiness is judged. Processing means call again (a CRD not yet
 * established, a removal or a rollout still going). */
export async function installModule(
  cluster: TargetCluster,
  module: RenderedModule,
  previous: SyncedResource[] = [],
): Promise<ModuleState> {
  const objects = await desiredObjects(cluster, module);
  if ('error' in objects) return { state: 'Error', reason: objects.error, synced: previous };
  try {
    const synced = await syncObjects(cluster.client, objects, previous, {
      fieldManager: module.fieldManager ?? FIELD_MANAGER.applier,
    });
    if ('pruning' in synced)
      return {
        state: 'Processing',
        reason: `removing ${synced.pruning.length} objects the module no longer has`,
        synced: [...previous],
      };
    if ('error' in synced) return { state: 'Error', reason: synced.error, synced: union(previous, synced.target) };
    const judged = await judge(cluster, module, synced.applied);
    // A CRD the module dropped that custom resources still use is kept (issue 34): the module says so.
    const heldCrds = synced.heldCrds ?? [];
    if (heldCrds.length && judged.state === 'Ready')
      return {
        state: 'Warning',
        reason: heldCrds.map(heldCrdMessage).join('; '),
        synced: [...synced.target, ...heldCrds.map((h) => h.crd)],
      };
    return { ...judged, synced: [...synced.target, ...heldCrds.map((h) => h.crd)] };
  } catch (error) {
    if (error instanceof NotYetReadyError)
      return { state: 'Processing', reason: error.message, synced: union(previous, objects.map(syncedOf)) };
    throw error;
  }
}

/** Drift and readiness without writing: objects missing or changed on the cluster since they were applied. */
export async function checkModule(
  cluster: TargetCluster,
  module: RenderedModule,
): Promise<Readiness & { consistent: boolean; drifted: SyncedResource[] }> {
  const objects = await desiredObjects(cluster, module);
  if ('error' in objects) return { state: 'Error', reason: objects.error, consistent: false, drifted: [] };
  const live = await Promise.all(
    objects.map((o) => cluster.client.get<RuntimeObject>(refOf(o)).catch(() => undefined)),
  );
  const drifted = objects
    .filter((o, i) => !isCurrent(live[i] as Annotated | undefined, withAppliedHash(o as RuntimeObject & Annotated)))
    .map(syncedOf);
  const present = live.filter((o): o is RuntimeObject => o !== undefined);
  const readiness = drifted.length
    ? {
        state: 'Processing' as const,
        reason: `${drifted.length} objects differ from the module: ${drifted
          .slice(0, 3)
          .map((r) => `${r.kind} ${r.name}`)
          .join(', ')}`,
      }
    : await judge(cluster, module, present);
  return { ...readiness, consistent: drifted.length === 0, drifted };
}

/** Removes what `synced` names (custom resources first, then the operator, CRDs last); done once nothing is left. */
export async function uninstallModule(
  cluster: TargetCluster,
  synced: SyncedResource[],
): Promise<{ done: boolean; remaining: SyncedResource[] }> {
  const remaining = await removeObjects(cluster.client, synced);
  return { done: remaining.length === 0, remaining };
}

async function desiredObjects(
  cluster: TargetCluster,
  module: RenderedModule,
): Promise<RuntimeObject[] | { error: string }> {
  let parsed: RuntimeObject[];
  try {
    parsed = typeof module.manifest === 'string' ? parseModuleObjects(module.manifest) : module.manifest;
  } catch (error) {
    return { error: `rendering the module failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return prepareForCluster(cluster.client, [...parsed, ...(module.customResources ?? [])], {
    name: module.name,
    namespace: module.namespace ?? 'default',
  });
}

async function judge(cluster: TargetCluster, module: RenderedModule, applied: RuntimeObject[]): Promise<Readiness> {
  return module.readiness
    ? module.readiness(applied, cluster)
    : moduleReadiness(applied, { pods: await podsToJudge(cluster.client, applied) });
}

const union = (a: SyncedResource[], b: SyncedResource[]) => [
  ...new Map([...a, ...b].map((r) => [syncedId(r), r])).values(),
];
