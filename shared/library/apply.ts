import { applyUnlessCurrent } from '../k8s/apply-current.ts';
import type { KubeClient } from '../k8s/client.ts';
import { KubeApiError } from '../k8s/errors.ts';
import { NotYetReadyError, TransientError, isConnectionError } from '../runtime/errors.ts';
import type { RuntimeObject } from './render.ts';

const FIRST_KINDS = new Set(['CustomResourceDefinition', 'Namespace']);
const PARALLEL = 8;

/**
 * Server-side applies every object that is not already so (force, one field manager; docs/adr/0014). CRDs and
 * Namespaces go first, then the rest, 8 at a time. Objects already as applied cost a read, not a write; objects
 * `absent` says were never applied (a first install) are applied without that read (ADR 27). Returns the objects as
 * stored (with live status), or the first error that needs the user (invalid objects). Unknown kinds (a CRD not
 * yet established) → NotYetReady; authentication and connection failures → TransientError.
 */
export async function applyAll(runtime: KubeClient, objects: RuntimeObject[], fieldManager: string, absent: (object: RuntimeObject) => boolean = () => false):
Promise<{ objects: RuntimeObject[] } | { error: string }> {
  const first = objects.filter((o) => FIRST_KINDS.has(o.kind));
  const rest = objects.filter((o) => !FIRST_KINDS.has(o.kind));
  const results = [...await applyBatch(runtime, first, fieldManager, absent), ...await applyBatch(runtime, rest, fieldManager, absent)];
  const failures = results.filter((r) => 'failure' in r);
  if (failures.length === 0) return { objects: results.map((r) => ('applied' in r ? r.applied : r.object)) };
  const errors = failures.map((f) => ('failure' in f ? f.failure : undefined));
  const transient = errors.find((e) => isConnectionError(e) || (e instanceof KubeApiError && [401, 403, 429].includes(e.status)) || (e instanceof KubeApiError && e.status >= 500));
  if (transient) throw new TransientError(`runtime cluster: ${messageOf(transient)}`, transient);
  const unknownKind = errors.find((e) => e instanceof KubeApiError && e.status === 404);
  if (unknownKind) throw new NotYetReadyError(`runtime does not serve a kind yet: ${messageOf(unknownKind)}`);
  return { error: `applying ${failures.length} of ${objects.length} resources failed: ${messageOf(errors[0])}` };
}

type Result = { applied: RuntimeObject } | { object: RuntimeObject; failure: unknown };

async function applyBatch(runtime: KubeClient, objects: RuntimeObject[], fieldManager: string, absent: (object: RuntimeObject) => boolean): Promise<Result[]> {
  const results: Result[] = [];
  for (let i = 0; i < objects.length; i += PARALLEL) {
    results.push(...await Promise.all(objects.slice(i, i + PARALLEL).map(async (object): Promise<Result> => {
      try {
        return { applied: await applyUnlessCurrent<RuntimeObject>(runtime, object, fieldManager, absent(object) ? null : undefined) };
      } catch (failure) {
        return { object, failure };
      }
    })));
  }
  return results;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
