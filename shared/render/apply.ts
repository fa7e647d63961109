import { applyUnlessCurrent } from '../kube/apply-current.ts';
import { crdSettled, sharedObjects } from '../kube/shared-objects.ts';
import type { KubeClient } from '../kube/client.ts';
import type { ObjectRef } from '../kube/types.ts';
import { readByName } from '../kube/listed-reads.ts';
import { KubeApiError } from '../kube/errors.ts';
import { NotYetReadyError, TransientError, isConnectionError } from '../host/errors.ts';
import { syncedOf, type RuntimeObject } from './render.ts';
import { sameAsHolder, type Ownership } from './ownership.ts';
import { mapAtMost } from '../core/at-most.ts';

const FIRST_KINDS = new Set(['CustomResourceDefinition', 'Namespace']);
const PARALLEL = 8;

/** Server-side applies every object not already so (force, one field manager, ADR 14): CRDs and Namespaces first, then
 * 8 at a time; `absent` ones unread (ADR 27); ones another module holds are left, reasons in `kept` (ADR 33). Returns
 * the stored objects or the first error needing the user; unknown kinds → NotYetReady, auth/connection → Transient. */
export async function applyAll(
  runtime: KubeClient,
  objects: RuntimeObject[],
  options: ApplyOptions,
): Promise<{ objects: RuntimeObject[]; kept: string[] } | { error: string }> {
  const first = objects.filter((o) => FIRST_KINDS.has(o.kind));
  const rest = objects.filter((o) => !FIRST_KINDS.has(o.kind));
  const results = [...(await applyBatch(runtime, first, options)), ...(await applyBatch(runtime, rest, options))];
  const failures = results.filter((r) => 'failure' in r);
  if (failures.length === 0) {
    return {
      objects: results.map((r) => ('applied' in r ? r.applied : 'kept' in r ? r.kept : r.object)),
      kept: results.flatMap((r) => ('reason' in r ? [r.reason] : [])),
    };
  }
  const errors = failures.map((f) => ('failure' in f ? f.failure : undefined));
  const transient = errors.find(
    (e) =>
      isConnectionError(e) ||
      (e instanceof KubeApiError && [401, 403, 429].includes(e.status)) ||
      (e instanceof KubeApiError && e.status >= 500),
  );
  if (transient) throw new TransientError(`runtime cluster: ${messageOf(transient)}`, transient);
  const unknownKind = errors.find((e) => e instanceof KubeApiError && e.status === 404);
  if (unknownKind) sharedObjects.forgetServer(runtime.server);
  if (unknownKind) throw new NotYetReadyError(`runtime does not serve a kind yet: ${messageOf(unknownKind)}`);
  return { error: `applying ${failures.length} of ${objects.length} resources failed: ${messageOf(errors[0])}` };
}

type Result =
  { applied: RuntimeObject } | { kept: RuntimeObject; reason: string } | { object: RuntimeObject; failure: unknown };

export interface ApplyOptions {
  fieldManager: string;
  /** Objects never applied by this caller (a first install): applied without reading them first (ADR 27). */
  absent?: (object: RuntimeObject) => boolean;
  /** A shared runtime (ADR 13): its cluster-scoped objects are every Kyma's there (ADR 32). */
  shared?: boolean;
  /** Who holds objects that several modules ship (ADR 33). */
  ownership?: Ownership;
  /** How an object is read before it is applied (a drift check: through lists, ADR 57); by name otherwise. */
  read?: ReadLive;
}

/** The live object (null: not there; undefined: the read failed, applyUnlessCurrent reads and reports again). */
export type ReadLive = (runtime: KubeClient, ref: ObjectRef) => Promise<RuntimeObject | null | undefined>;

/** One object: on a shared runtime its cluster-scoped objects are every Kyma's there (ADR 32); else read (not when
 * `absent` and no other module ships it), left when another module holds it, applied unless current. */
async function applyOne(runtime: KubeClient, object: RuntimeObject, how: ApplyOptions): Promise<Result> {
  if (how.shared && !object.metadata.namespace) {
    return {
      applied: await sharedObjects.apply(
        runtime,
        object,
        how.fieldManager,
        object.kind === 'CustomResourceDefinition' ? crdSettled : () => true,
      ),
    };
  }
  const unread = how.absent?.(object) === true && !(await how.ownership?.shippedElsewhere(syncedOf(object)));
  const ref = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.metadata.name,
    namespace: object.metadata.namespace,
  };
  const live = unread ? null : await (how.read ?? readByName<RuntimeObject>)(runtime, ref);
  const reason = live && (await how.ownership?.keptBy(live));
  // Left to its holder; said only when it differs from what this module ships (identical content: nothing to say).
  if (live && reason) return sameAsHolder(live, object) ? { applied: live } : { kept: live, reason };
  return { applied: await applyUnlessCurrent<RuntimeObject>(runtime, object, how.fieldManager, live) };
}

function applyBatch(runtime: KubeClient, objects: RuntimeObject[], how: ApplyOptions): Promise<Result[]> {
  return mapAtMost(objects, PARALLEL, async (object): Promise<Result> => {
    try {
      return await applyOne(runtime, object, how);
    } catch (failure) {
      return { object, failure };
    }
  });
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
