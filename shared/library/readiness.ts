import type { State } from '../domain/objects.ts';
import type { RuntimeObject } from './render.ts';

interface WorkloadCondition { type?: string; status?: string; reason?: string; message?: string }
interface Workload extends RuntimeObject {
  metadata: RuntimeObject['metadata'] & { generation?: number };
  spec?: { replicas?: number };
  status?: { observedGeneration?: number; readyReplicas?: number; conditions?: WorkloadCondition[] };
}

export interface Readiness {
  state: Extract<State, 'Ready' | 'Processing' | 'Error'>;
  reason: string;
}

/** PURE. The module's manager: the first Deployment or StatefulSet among its objects. */
export const managerOf = (objects: readonly RuntimeObject[]): RuntimeObject | undefined => objects.find((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet');

const PROGRESSING = new Set(['FoundNewReplicaSet', 'NewReplicaSetCreated', 'ReplicaSetUpdated']);

/**
 * PURE. The module's state from its manager: the first Deployment or StatefulSet among the applied objects
 * (as the API server returned them). No workload → Ready. A workload the controller has not looked at yet
 * (no conditions, or an older observedGeneration) is Processing rather than upstream's Error.
 */
export function moduleReadiness(applied: RuntimeObject[]): Readiness {
  const manager = managerOf(applied) as Workload | undefined;
  if (!manager) return { state: 'Ready', reason: 'module has no Deployment or StatefulSet to wait for' };
  const what = `${manager.kind} ${manager.metadata.namespace ?? ''}/${manager.metadata.name}`;
  const status = manager.status ?? {};
  if ((status.observedGeneration ?? 0) < (manager.metadata.generation ?? 0)) return { state: 'Processing', reason: `${what} is not observed by its controller yet` };
  return manager.kind === 'Deployment' ? deploymentReadiness(status.conditions ?? [], what) : statefulSetReadiness(manager, what);
}

function deploymentReadiness(conditions: WorkloadCondition[], what: string): Readiness {
  const progressing = conditions.find((c) => c.type === 'Progressing');
  const available = conditions.find((c) => c.type === 'Available');
  if (!progressing) return { state: 'Processing', reason: `${what} has no rollout status yet` };
  if (progressing.status === 'True' && progressing.reason === 'NewReplicaSetAvailable' && available?.status === 'True') {
    return { state: 'Ready', reason: `${what} is available` };
  }
  if (progressing.status === 'True' && PROGRESSING.has(progressing.reason ?? '')) return { state: 'Processing', reason: `${what} is rolling out (${progressing.reason})` };
  const detail = [progressing.reason, progressing.message].filter(Boolean).join(': ');
  return { state: 'Error', reason: `${what} is not progressing${detail ? ` (${detail})` : ''}` };
}

function statefulSetReadiness(set: Workload, what: string): Readiness {
  const wanted = set.spec?.replicas ?? 1;
  const ready = set.status?.readyReplicas ?? 0;
  return ready === wanted
    ? { state: 'Ready', reason: `${what} has ${ready}/${wanted} ready replicas` }
    : { state: 'Processing', reason: `${what} has ${ready}/${wanted} ready replicas` };
}
