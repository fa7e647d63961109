// CloudEvents ⇄ HTTP messages with the `cloudevents` SDK, and small event edits the broker needs.
import { CloudEvent, HTTP } from 'cloudevents';
import type { IncomingHttpHeaders } from 'node:http';
import { COALESCED_VERSIONS, versionsIn, type EventAttributes } from '../../shared/host/events.ts';

export interface HttpMessage {
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

/** Binary content mode (`ce-*` headers + data as the body), as Knative delivers to subscribers. */
export function binaryMessage(event: CloudEvent<unknown>): HttpMessage {
  const message = HTTP.binary(event);
  const headers = Object.fromEntries(Object.entries(message.headers).map(([name, value]) => [name, String(value)]));
  const body = message.body;
  return {
    headers,
    body:
      typeof body === 'string' || body instanceof Uint8Array ? body : body === undefined ? '' : JSON.stringify(body),
  };
}

/** True when the headers announce a CloudEvent (structured content type or binary `ce-specversion`). */
export function carriesCloudEvent(headers: IncomingHttpHeaders): boolean {
  return (
    headerText(headers['content-type']).startsWith('application/cloudevents') || headers['ce-specversion'] !== undefined
  );
}

/** Parses and validates one CloudEvent in binary or structured mode; throws when malformed or a batch. */
export function eventFromHttp(headers: IncomingHttpHeaders, body: Buffer): CloudEvent<unknown> {
  const flat = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, headerText(value)]));
  const parsed = HTTP.toEvent({
    headers: flat,
    body: isTextual(flat['content-type'] ?? '') ? body.toString('utf8') : body,
  });
  if (Array.isArray(parsed)) throw new Error('batched CloudEvents are not supported');
  const event = parsed as CloudEvent<unknown>;
  event.validate();
  return event;
}

/** Context attributes and extensions (everything but the data). */
export function attributesOf(event: CloudEvent<unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([name]) => name !== 'data' && name !== 'data_base64'));
}

export function withExtension(event: CloudEvent<unknown>, name: string, value: string | number): CloudEvent<unknown> {
  return new CloudEvent({ ...event, [name]: value }, false);
}

export function withoutExtension(event: CloudEvent<unknown>, name: string): CloudEvent<unknown> {
  if (!(name in event)) return event;
  return new CloudEvent(Object.fromEntries(Object.entries(event).filter(([key]) => key !== name)), false);
}

function isTextual(contentType: string): boolean {
  const type = contentType.toLowerCase();
  return type === '' || type.startsWith('text/') || type.includes('json') || type.includes('xml');
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** `newer`, standing also for `older` it replaces in the line (ADR 17): the versions of both in `coalescedversions`, so
 * a function never takes the pair for the echo of its own write when `older` was someone else's (ADR 83). */
export function coalesced(older: CloudEvent<unknown>, newer: CloudEvent<unknown>): CloudEvent<unknown> {
  const named = (event: CloudEvent<unknown>) => {
    const versions = versionsIn(event as unknown as EventAttributes);
    return versions.length ? versions : ['?'];
  };
  return withExtension(newer, COALESCED_VERSIONS, [...named(older), ...named(newer)].join(' '));
}
