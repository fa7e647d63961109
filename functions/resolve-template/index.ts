// resolve-template: a Kyma → which template (and version) each wanted module uses, in `status.modules[]`, and a
// `modules.resolved` reply; ModuleTemplate/ModuleReleaseMeta changes fan out to the Kymas (ADR 30). The order of
// steps is decide.ts (ADR 45), what each step does steps.ts; shared/host/invoke.ts runs every call.
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { InvalidEventError } from '../../shared/host/errors.ts';
import {
  APISERVER_ADD,
  APISERVER_DELETE,
  APISERVER_UPDATE,
  RESYNC_DUE,
  isDriftCheck,
} from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { MaintenancePolicyFile } from '../../shared/host/maintenance-file.ts';
import { RemoteKymaMemo } from './remote-memo.ts';
import { LastReplies } from './last-reply.ts';
import { seldomCheckedWithinMs } from '../../shared/core/resync-reasons.ts';
import { FINAL, nextResolveStep } from './decide.ts';
import { settledByEvent } from './inputs.ts';
import { STEPS, type ResolveCall, type ResolveDeps } from './steps.ts';

export const NAME = 'resolve-template';

/** Kyma → which template (and version) each wanted module uses, in `status.modules[]`; then a `modules.resolved` reply
 * for render-manifest. ModuleTemplate/ModuleReleaseMeta changes fan out to Kymas. */
export function resolveTemplate(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [
    CACHED.kymas,
    CACHED.manifests,
    CACHED.templates,
    CACHED.releaseMetas,
    CACHED.kubeconfigs,
  ]);
  const driftPeriodMs = deps.config.driftPeriodMinutes * 60_000;
  const on: ResolveDeps = {
    deps,
    live: given.kcp,
    runtimes: new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands),
    events: new EventRecorder(given.kcp, NAME),
    maintenance: new MaintenancePolicyFile(deps.config.maintenancePolicyPath, deps.config.maintenanceMinWindowMinutes),
    remotes: new RemoteKymaMemo(driftPeriodMs),
    replies: new LastReplies(seldomCheckedWithinMs(driftPeriodMs)),
  };
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    async handle({ event, key, log }) {
      if (!['Kyma', 'ModuleTemplate', 'ModuleReleaseMeta'].includes(key.kind))
        throw new InvalidEventError(`${NAME} handles Kyma, ModuleTemplate and ModuleReleaseMeta, not ${key.kind}`);
      // Most Kyma updates are status writes that change none of its inputs: settled by the event's data (ADR 66).
      const change = event.type === APISERVER_UPDATE ? 'update' : event.type === APISERVER_ADD ? 'add' : undefined;
      const settled = key.kind === 'Kyma' ? settledByEvent(change, event.data) : undefined;
      const kyma =
        key.kind === 'Kyma' && !settled
          ? await deps.kcp.get<Kyma>({
              apiVersion: API_VERSION,
              kind: 'Kyma',
              namespace: key.namespace,
              name: key.name,
            })
          : undefined;
      const view = { kind: key.kind, kyma, settled, driftCheck: isDriftCheck(event) };
      const call: ResolveCall = { view, key, event, log };
      for (let step = nextResolveStep(call.view); ; step = nextResolveStep(call.view)) {
        log.debug({ step: step.step }, `${NAME}: ${step.step}`);
        call.log = log.child({ step: step.step });
        await STEPS[step.step](on, call, step);
        if (FINAL.has(step.step)) return call.reply;
      }
    },
  };
}
