import { CloudEvent } from 'cloudevents';
import { InvalidEventError } from './errors.ts';

/** ApiServerSource (Resource mode) event types. */
export const APISERVER_ADD = 'dev.knative.apiserver.resource.add';
export const APISERVER_UPDATE = 'dev.knative.apiserver.resource.update';
export const APISERVER_DELETE = 'dev.knative.apiserver.resource.delete';
/** Our own events. Every one carries the same object-key extensions as ApiServerSource events. */
export const MODULES_RESOLVED = 'io.kyma-project.lifecycle.modules.resolved';
export const RESYNC_DUE = 'io.kyma-project.lifecycle.resync.due';
export const PING = 'dev.knative.sources.ping';
export const EVENT_SOURCE_PREFIX = '/lifecycle-manager';

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

/** The object key from the `kind`, `apiversion`, `namespace`, `name` extensions. */
export function objectKeyOf(event: EventAttributes): ObjectKey {
  const { kind, apiversion, namespace, name } = event;
  if (typeof kind !== 'string' || !kind || typeof apiversion !== 'string' || !apiversion
    || typeof name !== 'string' || !name || (namespace !== undefined && typeof namespace !== 'string')) {
    throw new InvalidEventError(`event ${event.id} of type ${event.type} lacks the kind/apiversion/name extensions`);
  }
  return { kind, apiVersion: apiversion, namespace: namespace ?? '', name };
}

export const keyText = (key: ObjectKey) => `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;

/**
 * The Kafka broker's record key (CloudEvents `partitionkey` extension): all events about one object land on one
 * partition, so a Trigger with `delivery.order: ordered` hands them to a function in order (docs/adr/0012).
 */
export const partitionKeyOf = (key: ObjectKey) => `${key.kind}/${key.namespace}/${key.name}`;

/** An event about `key`, caused by `cause` (its id travels as `causationid`, its trace context as `traceparent`). */
export function eventAbout(type: string, fn: string, key: ObjectKey, cause: EventAttributes | undefined,
  extra: Record<string, string> = {}): CloudEvent<undefined> {
  const trace = typeof cause?.traceparent === 'string' ? { traceparent: cause.traceparent } : {};
  return new CloudEvent<undefined>({
    type, source: `${EVENT_SOURCE_PREFIX}/${fn}`, subject: `${key.namespace}/${key.name}`,
    kind: key.kind, apiversion: key.apiVersion, namespace: key.namespace, name: key.name,
    partitionkey: partitionKeyOf(key),
    ...(cause ? { causationid: cause.id } : {}), ...trace, ...extra,
  });
}
