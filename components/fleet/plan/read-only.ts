// The plan never writes (ADR 39): its clients carry a user agent of their own, and every request that is not a GET
// must be a server-side dry-run (`dryRun=All`) — anything else is refused here, before it leaves the process.
import { ANNOTATION, FIELD_MANAGER } from '../../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../../shared/kube/client.ts';
import { withAppliedHash } from '../../../shared/kube/apply-current.ts';
import type { Annotated } from '../../../shared/core/current.ts';
import type { RuntimeObject } from '../../../shared/render/render.ts';

export const PLAN_USER_AGENT = 'kyma-lifecycle-plan';

/** Thrown for a request the plan must not make (a bug, never an answer): the request is not sent. */
export class PlanWriteRefused extends Error {}

/** `client` with every request checked: GET, or a write with dryRun=All in its query. */
export function readOnly(client: KubeClient): KubeClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'request') return Reflect.get(target, property, receiver) as unknown;
      return (method: string, path: string, ...rest: unknown[]) => {
        if (method !== 'GET' && !/[?&]dryRun=All(&|$)/.test(path))
          throw new PlanWriteRefused(`the plan does not write: ${method} ${path.split('?')[0]} refused`);
        return (target.request as (...args: unknown[]) => unknown).call(receiver, method, path, ...rest);
      };
    },
  });
}

/** What the runtime would store if apply-remote applied `object` now (server-side apply, dry run): with its applied
 * hash, as the applier's field manager, forced — the same request as apply-remote's, with dryRun=All. */
export async function dryRunApply(runtime: KubeClient, object: RuntimeObject): Promise<RuntimeObject> {
  const desired = withAppliedHash(object as RuntimeObject & Annotated);
  const path = await runtime.path({
    apiVersion: desired.apiVersion,
    kind: desired.kind,
    name: desired.metadata.name,
    namespace: desired.metadata.namespace,
  });
  const query = `?fieldManager=${encodeURIComponent(FIELD_MANAGER.applier)}&force=true&dryRun=All`;
  return runtime.request<RuntimeObject>('PATCH', `${path}${query}`, desired, 'application/apply-patch+yaml');
}

/** PURE. An object without what the server maintains (managedFields, resourceVersion, generation, uid, timestamps,
 * status) and without the applied hash: what differs after this is a change of the object itself. */
export function comparable(object: RuntimeObject): unknown {
  const copy = structuredClone(object) as RuntimeObject & { status?: unknown };
  delete copy.status;
  const metadata = Object.fromEntries(
    Object.entries(copy.metadata).filter(([k]) => !SERVER_FIELDS.has(k)),
  ) as RuntimeObject['metadata'];
  const annotations = Object.fromEntries(
    Object.entries(metadata.annotations ?? {}).filter(([k]) => k !== ANNOTATION.appliedHash),
  );
  return { ...copy, metadata: { ...metadata, annotations } };
}

const SERVER_FIELDS = new Set(['managedFields', 'resourceVersion', 'generation', 'uid', 'creationTimestamp']);
