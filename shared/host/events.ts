import { CloudEvent } from 'cloudevents';
import { InvalidEventError } from './errors.ts';
import { callContext } from './call-context.ts';
import { currentTraceparent } from './trace.ts';
import { RESYNC_DRIFT, RESYNC_PENDING, RESYNC_REASON, RESYNC_RELEASE } from '../core/resync-reasons.ts';
import type { Freshness } from '../kube/types.ts';

/** ApiServerSource (Resource mode) event types. */
export const APISERVER_ADD = 'dev.knative.apiserver.resource.add';
export const APISERVER_UPDATE = 'dev.knative.apiserver.resource.update';
export const APISERVER_DELETE = 'dev.knative.apiserver.resource.delete';
/** Our own events. Every one carries the same object-key extensions as ApiServerSource events. */
export const MODULES_RESOLVED = 'io.kyma-project.lifecycle.modules.resolved';
export const RESYNC_DUE = 'io.kyma-project.lifecycle.resync.due';
/** A Kyma's modules due for their drift checks: one event naming its Manifests, for apply-remote alone (ADR 94). */
export const MODULES_DUE = 'io.kyma-project.lifecycle.modules.due';
export const PING = 'dev.knative.sources.ping';
export const EVENT_SOURCE_PREFIX = '/lifecycle-manager';

/** The lane an event travels in, CloudEvents extension `lifecyclelane` (ADR 25): `user` for a user's change on a
 * runtime, `background` for resync and catalog fan-out (on Triggers of their own), none for the API server's events;
 * an event caused by another inherits its lane. */
export const LANE = 'lifecyclelane';
export const LANE_USER = 'user';
export const LANE_BACKGROUND = 'background';

/** Why a `resync.due` was sent: see shared/core/resync-reasons.ts. */
export { RESYNC_DRIFT, RESYNC_PENDING, RESYNC_REASON, RESYNC_RELEASE };

/** Whether an event is the resync's drift check of a Ready object, or of a Kyma's Ready modules (ADR 94): background
 * work, not an install. */
export const isDriftCheck = (event: EventAttributes): boolean =>
  (event.type === RESYNC_DUE || event.type === MODULES_DUE) && event[RESYNC_REASON] === RESYNC_DRIFT;

/** Whether an event asks for a full check against the runtime (read everything, trust no memo): every `resync.due`
 * but the resync's safety net for objects not Ready yet and a release reaching a Kyma. */
export const checksDrift = (event: EventAttributes): boolean =>
  event.type === RESYNC_DUE && event[RESYNC_REASON] !== RESYNC_PENDING && event[RESYNC_REASON] !== RESYNC_RELEASE;

/** How an event's full check reads the runtime (false: no full check): the resync's drift checks from the API server's
 * watch cache (`any`, ADR 76), the others (a runtime watch's) `live`. */
export const fullCheckOf = (event: EventAttributes): Freshness | false =>
  checksDrift(event) && (isDriftCheck(event) ? 'any' : 'live');

/** The object an event points at. Functions re-read it; event data is never trusted as current. */
export interface ObjectKey {
  kind: string;
  apiVersion: string;
  namespace: string;
  name: string;
}

export interface EventAttributes {
  id: string;
  type: string;
  source: string;
  specversion: string;
  [extension: string]: unknown;
}

/** Kubernetes object and namespace names, kinds and apiVersions as the API server accepts them (names: DNS
 * subdomains, plus `:` as RBAC names use; namespaces: DNS labels). Anything else in an event is hostile or broken. */
const NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9.:]*[a-z0-9])?$/;
const NAMESPACE = /^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const KIND = /^[A-Z][A-Za-z0-9]{0,62}$/;
const API_VERSION = /^(?:(?=.{1,253}\/)[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?$/;

/** Whether `name` is an object name the API server accepts. */
export const isObjectName = (name: string): boolean => NAME.test(name);

/** The object key from the `kind`, `apiversion`, `namespace`, `name` extensions; 400 when any is missing or malformed. */
export function objectKeyOf(event: EventAttributes): ObjectKey {
  const { kind, apiversion, namespace, name } = event;
  if (
    typeof kind !== 'string' ||
    !kind ||
    typeof apiversion !== 'string' ||
    !apiversion ||
    typeof name !== 'string' ||
    !name ||
    (namespace !== undefined && typeof namespace !== 'string')
  ) {
    throw new InvalidEventError(
      `event ${printable(event.id)} of type ${printable(event.type)} lacks the kind/apiversion/name extensions`,
    );
  }
  const malformed = [
    !KIND.test(kind) && 'kind',
    !API_VERSION.test(apiversion) && 'apiversion',
    !NAME.test(name) && 'name',
    namespace && !NAMESPACE.test(namespace) && 'namespace',
  ].filter(Boolean);
  if (malformed.length)
    throw new InvalidEventError(`event ${printable(event.id)} has malformed ${malformed.join(', ')} extension(s)`);
  return { kind, apiVersion: apiversion, namespace: namespace ?? '', name };
}

/** An attribute as it may appear in an error message and a log line: bounded, without control characters. */
export function printable(value: unknown): string {
  const text = typeof value === 'string' ? value : String(value);
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return JSON.stringify(clean.length > 80 ? `${clean.slice(0, 80)}…` : clean);
}

/** The resourceVersion of the object an event is about, when it says: ApiServerSource data, or our `resourceversion`. */
export function versionIn(event: EventAttributes): string | undefined {
  const data = (event as { data?: { metadata?: { resourceVersion?: unknown } } }).data;
  const version = data?.metadata?.resourceVersion ?? event.resourceversion;
  return typeof version === 'string' ? version : undefined;
}

/** The versions a delivery of the local broker stands for when newer events replaced it while it waited (ADR 83):
 * space-separated, `?` for an event that named none. Only ever widens work: an event is an echo only if all are own. */
export const COALESCED_VERSIONS = 'coalescedversions';

/** The resourceVersions an event stands for: those the local broker coalesced into it, else its own (if it names one). */
export function versionsIn(event: EventAttributes): string[] {
  const coalesced = event[COALESCED_VERSIONS];
  if (typeof coalesced === 'string' && coalesced) return coalesced.split(' ');
  const version = versionIn(event);
  return version === undefined ? [] : [version];
}

export const keyText = (key: ObjectKey) => `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;

/** The Kafka broker's record key (CloudEvents `partitionkey`): one object's events share a partition, so a Trigger with
 * `delivery.order: ordered` hands them over in order (ADR 12). */
export const partitionKeyOf = (key: ObjectKey) => `${key.kind}/${key.namespace}/${key.name}`;

/** An event about `key`, caused by `cause` (its id travels as `causationid`, its lane — or the call's, ADR 72 — as
 * `lifecyclelane`);
 * `traceparent` is the sending call's span (ADR 20), or a new trace outside a call. */
export function eventAbout(
  type: string,
  fn: string,
  key: ObjectKey,
  cause: EventAttributes | undefined,
  extra: Record<string, string> = {},
): CloudEvent<undefined> {
  const trace = { traceparent: currentTraceparent() };
  const lane = cause?.[LANE] ?? callContext().lane;
  return new CloudEvent<undefined>({
    type,
    source: `${EVENT_SOURCE_PREFIX}/${fn}`,
    subject: `${key.namespace}/${key.name}`,
    kind: key.kind,
    apiversion: key.apiVersion,
    namespace: key.namespace,
    name: key.name,
    partitionkey: partitionKeyOf(key),
    ...(cause ? { causationid: cause.id } : {}),
    ...(lane === LANE_USER || lane === LANE_BACKGROUND ? { [LANE]: lane } : {}),
    ...trace,
    ...extra,
  });
}
