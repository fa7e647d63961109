import type { State } from '../core/objects.ts';
import type { RuntimeObject } from './render.ts';

interface WorkloadCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
interface Workload extends RuntimeObject {
  metadata: RuntimeObject['metadata'] & {
    generation?: number;
    creationTimestamp?: string;
    managedFields?: { time?: string; subresource?: string }[];
  };
  spec?: { replicas?: number };
  status?: { observedGeneration?: number; readyReplicas?: number; conditions?: WorkloadCondition[] };
}

/** A pod of a StatefulSet, as far as its readiness is judged (upstream: the first container of the first pod). */
export interface WorkloadPod {
  metadata: { name: string; creationTimestamp?: string };
  status?: {
    phase?: string;
    containerStatuses?: {
      name: string;
      started?: boolean;
      ready?: boolean;
      state?: { waiting?: { reason?: string; message?: string } };
    }[];
  };
}

/** What readiness looks at besides the applied objects: the time, and the StatefulSet's pods when it is not ready
 * (undefined: not read, the StatefulSet waits as Processing). */
export interface Observed {
  now?: number;
  pods?: WorkloadPod[] | undefined;
}

/** How long a workload may go unobserved by its controller, or a StatefulSet's pod unstarted, before it is Error
 * (upstream says Error at once; a workload just applied is given this long). */
export const SETTLE_MS = 60_000;
/** Container states that will not resolve by waiting: Error at once. */
const BROKEN = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'CreateContainerConfigError',
  'CreateContainerError',
  'InvalidImageName',
  'RunContainerError',
]);

export interface Readiness {
  state: Extract<State, 'Ready' | 'Processing' | 'Error'>;
  reason: string;
}

/** PURE. The module's manager: the first Deployment or StatefulSet among its objects. */
export const managerOf = (objects: readonly RuntimeObject[]): RuntimeObject | undefined =>
  objects.find((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');

const PROGRESSING = new Set(['FoundNewReplicaSet', 'NewReplicaSetCreated', 'ReplicaSetUpdated']);

/** PURE. The module's state from its first Deployment or StatefulSet as applied, judged as upstream does (no workload →
 * Ready), but a workload applied less than SETTLE_MS ago that upstream would call Error at once (not yet seen by its
 * controller, a StatefulSet pod not started) is Processing (ADR 6). */
export function moduleReadiness(applied: RuntimeObject[], observed: Observed = {}): Readiness {
  const manager = managerOf(applied) as Workload | undefined;
  if (!manager) return { state: 'Ready', reason: 'module has no Deployment or StatefulSet to wait for' };
  const what = `${manager.kind} ${manager.metadata.namespace ?? ''}/${manager.metadata.name}`;
  const status = manager.status ?? {};
  const age = ageOf(manager, observed.now ?? Date.now());
  if ((status.observedGeneration ?? 0) < (manager.metadata.generation ?? 0))
    return unsettled(`${what} is not observed by its controller`, age);
  return manager.kind === 'Deployment'
    ? deploymentReadiness(status.conditions ?? [], what, age)
    : statefulSetReadiness(manager, what, observed, age);
}

/** Since the workload's spec was last written (its newest managedFields entry outside status), else its creation. */
function ageOf(workload: Workload, now: number): number {
  const times = (workload.metadata.managedFields ?? [])
    .filter((f) => !f.subresource)
    .map((f) => Date.parse(f.time ?? ''))
    .filter((t) => !Number.isNaN(t));
  const since = times.length ? Math.max(...times) : Date.parse(workload.metadata.creationTimestamp ?? '');
  return Number.isNaN(since) ? 0 : now - since;
}

/** Waiting that is expected for a while after an apply, and Error after SETTLE_MS. */
function unsettled(reason: string, age: number): Readiness {
  return age < SETTLE_MS
    ? { state: 'Processing', reason: `${reason} yet` }
    : { state: 'Error', reason: `${reason} after ${Math.round(age / 1000)} s` };
}

function deploymentReadiness(conditions: WorkloadCondition[], what: string, age: number): Readiness {
  const progressing = conditions.find((c) => c.type === 'Progressing');
  const available = conditions.find((c) => c.type === 'Available');
  if (!progressing) return unsettled(`${what} has no rollout status`, age);
  if (
    progressing.status === 'True' &&
    progressing.reason === 'NewReplicaSetAvailable' &&
    available?.status === 'True'
  ) {
    return { state: 'Ready', reason: `${what} is available` };
  }
  if (progressing.status === 'True' && PROGRESSING.has(progressing.reason ?? ''))
    return { state: 'Processing', reason: `${what} is rolling out (${progressing.reason})` };
  const detail = [progressing.reason, progressing.message].filter(Boolean).join(': ');
  return { state: 'Error', reason: `${what} is not progressing${detail ? ` (${detail})` : ''}` };
}

/** All replicas ready → Ready; else, as upstream, the first container of the first pod: started and ready → Ready,
 * started → Processing, a broken container state → Error, otherwise Error once SETTLE_MS have passed. */
function statefulSetReadiness(set: Workload, what: string, observed: Observed, age: number): Readiness {
  const wanted = set.spec?.replicas ?? 1;
  const ready = set.status?.readyReplicas ?? 0;
  const replicas = `${what} has ${ready}/${wanted} ready replicas`;
  if (ready === wanted) return { state: 'Ready', reason: replicas };
  if (!observed.pods) return { state: 'Processing', reason: replicas };
  const [pod] = observed.pods;
  if (!pod) return unsettled(`${replicas} and no pods`, age);
  const container = pod.status?.containerStatuses?.[0];
  if (container?.started && container.ready)
    return { state: 'Ready', reason: `${replicas}; pod ${pod.metadata.name} is ready` };
  if (container?.started)
    return { state: 'Processing', reason: `${replicas}; pod ${pod.metadata.name} is started, not ready` };
  const waiting = container?.state?.waiting;
  const detail = waiting?.reason
    ? ` (${[waiting.reason, waiting.message].filter(Boolean).join(': ')})`
    : pod.status?.phase
      ? ` (${pod.status.phase})`
      : '';
  const problem = `${replicas}; pod ${pod.metadata.name} is not started${detail}`;
  if (BROKEN.has(waiting?.reason ?? '')) return { state: 'Error', reason: problem };
  const created = Date.parse(pod.metadata.creationTimestamp ?? '');
  return unsettled(problem, Number.isNaN(created) ? age : (observed.now ?? Date.now()) - created);
}
