// Knative Triggers (`eventing.knative.dev/v1`, kind Trigger) read from the YAML files of a directory.
import { parseIsoDuration } from './duration.ts';
import { parseAttributesFilter, parseFilters } from './filter-spec.ts';
import type { EventFilter } from './filters.ts';
import { asRecord, optionalString, requiredString } from './manifest-fields.ts';
import { ofKind, parseManifests, readManifestDirectory, type ManifestDocument } from '../controlplane/object-files.ts';

export interface SubscriberRef {
  readonly apiVersion?: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

/** A Knative Destination: an addressable's ref, a URI, or a ref with a URI relative to its address. */
export interface Destination {
  readonly ref?: SubscriberRef;
  readonly uri?: string;
}

export interface DeliveryOptions {
  /** Retries after the first attempt (total attempts = retry + 1). */
  readonly retry: number;
  readonly backoffPolicy: 'exponential' | 'linear';
  readonly backoffDelayMs: number;
  /** Per-attempt timeout; absent = none. */
  readonly timeoutMs?: number;
}

export interface Trigger {
  readonly name: string;
  readonly namespace?: string;
  readonly broker: string;
  /** `spec.filters` when non-empty (Knative: filters win), else the legacy `spec.filter.attributes`; ANDed. */
  readonly filters: readonly EventFilter[];
  readonly subscriber: Destination;
  readonly delivery: DeliveryOptions;
  /** `spec.delivery.deadLetterSink`: where an event goes once the Trigger gives up on it. */
  readonly deadLetterSink?: Destination;
  /** Deliveries in flight at once in the local broker (annotation `lifecycle.kyma-project.io/max-in-flight`); absent =
   * the broker's default. Knative has no such field: there the Kafka broker's ordered delivery bounds it (ADR 25). */
  readonly maxInFlight?: number;
}

export const MAX_IN_FLIGHT_ANNOTATION = 'lifecycle.kyma-project.io/max-in-flight';

export const DEFAULT_DELIVERY: DeliveryOptions = Object.freeze({
  retry: 3,
  backoffPolicy: 'exponential',
  backoffDelayMs: 200,
});

const API_VERSION = 'eventing.knative.dev/v1';

/** Every Trigger in the YAML files of `dir` (other kinds and kustomization.yaml are ignored). */
export async function loadTriggers(dir: string): Promise<Trigger[]> {
  return triggersOf(await readManifestDirectory(dir));
}

/** The Triggers of one YAML text; `file` names it in errors. */
export function parseTriggers(text: string, file = '<inline>'): Trigger[] {
  return triggersOf(parseManifests(text, file));
}

function triggersOf(docs: readonly ManifestDocument[]): Trigger[] {
  return ofKind(docs, API_VERSION, 'Trigger').map((doc) => {
    try {
      return triggerFrom(doc.object);
    } catch (e) {
      const name = asRecord(doc.object.metadata, 'metadata')?.name;
      throw new Error(
        `${doc.file}: Trigger ${typeof name === 'string' ? name : '(unnamed)'}: ${(e as Error).message}`,
        { cause: e },
      );
    }
  });
}

function triggerFrom(object: Record<string, unknown>): Trigger {
  const metadata = asRecord(object.metadata, 'metadata') ?? {};
  const spec = asRecord(object.spec, 'spec') ?? {};
  const namespace = optionalString(metadata.namespace, 'metadata.namespace');
  const filters = parseFilters(spec.filters);
  const legacy = parseAttributesFilter(asRecord(spec.filter, 'spec.filter')?.attributes);
  const maxInFlight = maxInFlightOf(asRecord(metadata.annotations, 'metadata.annotations')?.[MAX_IN_FLIGHT_ANNOTATION]);
  return {
    name: requiredString(metadata.name, 'metadata.name'),
    ...(namespace === undefined ? {} : { namespace }),
    broker: requiredString(spec.broker, 'spec.broker'),
    filters: filters.length > 0 || legacy === undefined ? filters : [legacy],
    subscriber: subscriberFrom(asRecord(spec.subscriber, 'spec.subscriber')),
    delivery: deliveryFrom(asRecord(spec.delivery, 'spec.delivery')),
    ...deadLetterSinkOf(asRecord(spec.delivery, 'spec.delivery')),
    ...(maxInFlight === undefined ? {} : { maxInFlight }),
  };
}

function maxInFlightOf(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^[0-9]{1,6}$/.test(raw) ? Number(raw) : 0;
  if (value < 1)
    throw new Error(
      `metadata.annotations.${MAX_IN_FLIGHT_ANNOTATION}: must be a positive whole number, got ${JSON.stringify(raw)}`,
    );
  return value;
}

function deadLetterSinkOf(delivery: Record<string, unknown> | undefined): { deadLetterSink?: Destination } {
  const raw = asRecord(delivery?.deadLetterSink, 'spec.delivery.deadLetterSink');
  return raw ? { deadLetterSink: subscriberFrom(raw, 'spec.delivery.deadLetterSink') } : {};
}

function subscriberFrom(raw: Record<string, unknown> | undefined, path = 'spec.subscriber'): Destination {
  if (!raw) throw new Error(`${path}: is required`);
  const uri = optionalString(raw.uri, `${path}.uri`);
  const rawRef = asRecord(raw.ref, `${path}.ref`);
  if (!rawRef && uri === undefined) throw new Error(`${path}: needs a ref or a uri`);
  if (!rawRef) return { uri: uri ?? '' };
  const apiVersion = optionalString(rawRef.apiVersion, `${path}.ref.apiVersion`);
  const namespace = optionalString(rawRef.namespace, `${path}.ref.namespace`);
  const ref: SubscriberRef = {
    kind: requiredString(rawRef.kind, `${path}.ref.kind`),
    name: requiredString(rawRef.name, `${path}.ref.name`),
    ...(apiVersion === undefined ? {} : { apiVersion }),
    ...(namespace === undefined ? {} : { namespace }),
  };
  return uri === undefined ? { ref } : { ref, uri };
}

function deliveryFrom(raw: Record<string, unknown> | undefined): DeliveryOptions {
  if (!raw) return DEFAULT_DELIVERY;
  const retry = raw.retry ?? DEFAULT_DELIVERY.retry;
  if (typeof retry !== 'number' || !Number.isInteger(retry) || retry < 0)
    throw new Error(`spec.delivery.retry: must be a non-negative integer, got ${JSON.stringify(retry)}`);
  const policy = raw.backoffPolicy ?? DEFAULT_DELIVERY.backoffPolicy;
  if (policy !== 'exponential' && policy !== 'linear')
    throw new Error(`spec.delivery.backoffPolicy: must be exponential or linear, got ${JSON.stringify(policy)}`);
  const delay = optionalString(raw.backoffDelay, 'spec.delivery.backoffDelay');
  const timeout = optionalString(raw.timeout, 'spec.delivery.timeout');
  return {
    retry,
    backoffPolicy: policy,
    backoffDelayMs:
      delay === undefined ? DEFAULT_DELIVERY.backoffDelayMs : duration(delay, 'spec.delivery.backoffDelay'),
    ...(timeout === undefined ? {} : { timeoutMs: duration(timeout, 'spec.delivery.timeout') }),
  };
}

function duration(text: string, path: string): number {
  try {
    return parseIsoDuration(text);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`, { cause: e });
  }
}
