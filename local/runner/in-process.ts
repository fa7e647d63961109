// The local runner's functions live in the broker's process: its deliveries and their fan-out go by call, not over
// loopback HTTP (ADR 42) — on Knative they are HTTP, and `./dev test:knative` runs that path. A function gets what
// a binary-mode HTTP delivery gives it: the attributes and extensions as text, data none can change (publishing
// hands the data over and it is frozen in place, ADR 51: the functions of one event share it), and its answer means
// what the same HTTP answer would (status, reply event, retries).
import type { CloudEvent } from 'cloudevents';
import { isRetryableStatus, type DeliveryOutcome, type InProcessSubscriber } from '../eventing/delivery.ts';
import type { LocalBroker } from '../eventing/broker.ts';
import { TransientError } from '../../shared/host/errors.ts';
import type { EventAttributes } from '../../shared/host/events.ts';
import type { FunctionHost } from '../../shared/host/host.ts';
import type { Outcome } from '../../shared/host/invoke.ts';
import type { EventSink } from '../../shared/host/sink.ts';

/** The event as a binary-mode HTTP delivery hands it over: every attribute a string, the data frozen (ADR 51). */
export function deliveredCopy(event: CloudEvent<unknown>): EventAttributes {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(event)) {
    if (name === 'data' || name === 'data_base64' || value === undefined || value === null) continue;
    copy[name] = typeof value === 'string' ? value : String(value);
  }
  if (event.data !== undefined) {
    copy['datacontenttype'] ??= 'application/json; charset=utf-8'; // the SDK's Content-Type for data without one
    copy['data'] = ArrayBuffer.isView(event.data) ? Buffer.from(event.data as Uint8Array) : deepFreeze(event.data);
  }
  return copy as EventAttributes;
}

/** Freezes `value` and everything in it; a frozen object's children are frozen already (they go first). */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** A function host as the broker's subscriber. */
export function inProcessSubscriber(host: FunctionHost): InProcessSubscriber {
  return async (event) => deliveryOutcomeOf(await host.call(deliveredCopy(event)));
}

/** PURE. The function's outcome as the broker reads the HTTP answer the host would have sent. */
export function deliveryOutcomeOf(outcome: Outcome): DeliveryOutcome {
  if ('reply' in outcome) return { kind: 'replied', status: 200, reply: outcome.reply };
  if (!('error' in outcome)) return { kind: 'acked', status: 204 };
  const body = JSON.stringify({ code: outcome.error.code, message: outcome.error.message }).slice(0, 200);
  return {
    kind: 'failed',
    retryable: isRetryableStatus(outcome.status),
    status: outcome.status,
    error: `subscriber answered ${outcome.status}: ${body}`,
  };
}

/** The functions' fan-out straight into the broker, as a POST to its ingress would put it there. */
export function brokerSink(broker: LocalBroker): EventSink {
  return async (event) => {
    try {
      await broker.publish(event);
    } catch (error) {
      throw new TransientError(
        `broker ingress did not accept event ${event.type}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
}
