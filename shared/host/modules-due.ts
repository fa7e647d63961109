// A Kyma's modules due for their drift checks (ADR 94): the resync names them in one `modules.due` about the Kyma, and
// apply-remote checks each in one call, as the `resync.due` the resync used to send for each one would have.
import type { CloudEvent } from 'cloudevents';
import { InvalidEventError } from './errors.ts';
import {
  eventAbout,
  isObjectName,
  LANE,
  printable,
  MODULES_DUE,
  RESYNC_DUE,
  RESYNC_REASON,
  type EventAttributes,
  type ObjectKey,
} from './events.ts';

/** The extension that names a Kyma's Manifests due, comma-separated. */
export const DUE_MANIFESTS = 'lifecyclemanifests';
/** The most Manifests one `modules.due` names; the resync sends more in several. */
export const MAX_DUE_MANIFESTS = 100;

/** The `modules.due` events about `kyma` naming `manifests` (at most MAX_DUE_MANIFESTS each), with the lane and reason
 * `extra` gives (the resync's: background, drift). */
export function modulesDue(
  fn: string,
  kyma: ObjectKey,
  manifests: readonly string[],
  cause: EventAttributes | undefined,
  extra: Record<string, string>,
): CloudEvent<undefined>[] {
  const events: CloudEvent<undefined>[] = [];
  for (let at = 0; at < manifests.length; at += MAX_DUE_MANIFESTS) {
    const names = manifests.slice(at, at + MAX_DUE_MANIFESTS).join(',');
    const event = eventAbout(MODULES_DUE, fn, kyma, cause, { ...extra, [DUE_MANIFESTS]: names });
    // A subject of its own for each part: a broker that lets a newer event of one subject replace a waiting one
    // (the local broker, ADR 17) keeps them all.
    events.push(at ? event.cloneWith({ subject: `${event.subject ?? ''}#${at / MAX_DUE_MANIFESTS}` }) : event);
  }
  return events;
}

/** The Manifests a `modules.due` names, in order; 400 when it names none, too many or a malformed name. */
export function dueManifestsOf(event: EventAttributes): string[] {
  const text = event[DUE_MANIFESTS];
  const names = typeof text === 'string' && text ? text.split(',') : [];
  if (!names.length || names.length > MAX_DUE_MANIFESTS || !names.every(isObjectName))
    throw new InvalidEventError(
      `event ${printable(event.id)} of type ${MODULES_DUE} must name 1 to ${MAX_DUE_MANIFESTS} Manifests in ${DUE_MANIFESTS}`,
    );
  return names;
}

/** The `resync.due` of one Manifest a `modules.due` stands for, caused by it, with its lane and reason: what its
 * check in the batch acts on, and what is sent when that check fails (the broker retries it on its own). */
export function manifestCheckOf(fn: string, event: EventAttributes, manifest: ObjectKey): CloudEvent<undefined> {
  const extra: Record<string, string> = {};
  for (const name of [LANE, RESYNC_REASON]) if (typeof event[name] === 'string') extra[name] = event[name];
  return eventAbout(RESYNC_DUE, fn, manifest, event, extra);
}

/** The key of a Manifest a `modules.due` about `kyma` names (its namespace and apiVersion). */
export const dueManifestKey = (kyma: ObjectKey, name: string): ObjectKey => ({ ...kyma, kind: 'Manifest', name });
