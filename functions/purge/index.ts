// purge: a deleting Kyma → one step of upstream's deletion chain per call, then a retry, until our finalizer is
// dropped. Which step comes next is decide.ts (nextDeletionStep, pinned by decide.test.ts); what each step does and
// the order a call takes them in is steps.ts. shared/host/invoke.ts runs every call.
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { InvalidEventError } from '../../shared/host/errors.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, RESYNC_DUE } from '../../shared/host/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { kymaNameOf, serialByKyma } from '../../shared/kube/kyma-of.ts';
import { continueDeletion, type PurgeDeps } from './steps.ts';
import { nothingToPurge } from './decide.ts';

export const NAME = 'purge';
/** How long a call waits for its Kyma's running call before it runs beside it: longer than a runtime step takes. */
const SERIAL_WAIT_MS = 30_000;

/** A Kyma with a deletionTimestamp: one step of the deletion chain per call (see decide.ts), then a retry. */
export function purge(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.kubeconfigs]);
  const on: PurgeDeps = {
    deps,
    live: given.kcp,
    runtimes: new RuntimeClients(deps.kcp, deps.config.kubeconfigExecCommands),
    events: new EventRecorder(given.kcp, NAME),
  };
  return {
    name: NAME,
    accepts: [APISERVER_ADD, APISERVER_UPDATE, APISERVER_DELETE, RESYNC_DUE],
    // One call per Kyma at a time (a Kyma's own events and its Manifests'): side by side, two calls took the runtime
    // steps twice, and the later one's CRD deletion could meet the runtime's next Kyma (ADR 70, 74).
    serialOf: serialByKyma(SERIAL_WAIT_MS),
    async handle({ event, key, log }) {
      if (key.kind !== 'Kyma' && key.kind !== 'Manifest')
        throw new InvalidEventError(`${NAME} handles Kyma and Manifest events, not ${key.kind}`);
      const changed = event.type === APISERVER_ADD || event.type === APISERVER_UPDATE;
      if (nothingToPurge(key.kind, changed, event.data)) return undefined;
      const kymaName = await kymaNameOf(deps.kcp, key, event);
      // A Manifest gone without a trace of its Kyma, or a Kyma not being deleted: nothing to purge.
      const kyma = kymaName
        ? await deps.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: key.namespace, name: kymaName })
        : undefined;
      if (!kyma?.metadata.deletionTimestamp) return undefined;
      await continueDeletion(on, kyma, log);
      return undefined;
    },
  };
}
