// A Kyma's modules due for their drift checks, in one call (ADR 94): each Manifest's check is the one its own
// `resync.due` would have run, in that Manifest's turn (ADR 11), one after the other, so they share the Kyma's lists
// (ADR 57). A check that fails is sent its own `resync.due`, which the broker retries alone as before.
import { InvalidEventError } from '../../shared/host/errors.ts';
import { keyText, type EventAttributes, type ObjectKey } from '../../shared/host/events.ts';
import type { Invocation } from '../../shared/host/invoke.ts';
import { dueManifestKey, dueManifestsOf, manifestCheckOf } from '../../shared/host/modules-due.ts';
import type { EventSink } from '../../shared/host/sink.ts';

/** What checking one Manifest takes: its call as its own event would be, and the turn of its key. */
export interface ModuleChecks {
  fn: string;
  check: (invocation: Invocation) => Promise<unknown>;
  inTurn: (key: ObjectKey, work: () => Promise<unknown>) => Promise<unknown>;
  sink: EventSink;
}

/** Checks the modules a `modules.due` about a Kyma names; answers how many were checked and how many sent on alone. */
export async function checkModules(
  { event, key, log }: Invocation,
  on: ModuleChecks,
): Promise<{ checked: number; resent: number }> {
  if (key.kind !== 'Kyma') throw new InvalidEventError(`a modules.due is about a Kyma, not a ${key.kind}`);
  const failed = [];
  const names = dueManifestsOf(event);
  for (const name of names) {
    const manifest = dueManifestKey(key, name);
    const check = manifestCheckOf(on.fn, event, manifest);
    const bound = log.child({ object: keyText(manifest) });
    try {
      await on.inTurn(manifest, () => on.check({ event: check as EventAttributes, key: manifest, log: bound }));
    } catch (error) {
      bound.info(
        { err: error instanceof Error ? error.message : String(error) },
        'drift check failed: sent on its own',
      );
      failed.push(check);
    }
  }
  // A resync.due that cannot be sent fails this call: the broker retries it, checking all again.
  for (const check of failed) await on.sink(check);
  return { checked: names.length, resent: failed.length };
}
