// A CloudEvent from an HTTP request (binary or structured mode), checked against the spec's required attributes: what
// the function host serves, and the fleet component's dead-letter sink.
import { HTTP } from 'cloudevents';
import type { IncomingHttpHeaders } from 'node:http';
import { InvalidEventError } from './errors.ts';
import type { EventAttributes } from './events.ts';

/** The event, or the InvalidEventError saying what is wrong with it. */
export function parseEvent(headers: IncomingHttpHeaders, body: string): EventAttributes | InvalidEventError {
  const missing = missingAttributes(headers, body);
  if (missing.length)
    return new InvalidEventError(
      `not a valid CloudEvent: required attribute(s) ${missing.join(', ')} missing or empty`,
    );
  try {
    const event = HTTP.toEvent({ headers, body });
    if (Array.isArray(event)) return new InvalidEventError('batched CloudEvents are not accepted');
    return event as unknown as EventAttributes;
  } catch (error) {
    return new InvalidEventError(`not a valid CloudEvent: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const REQUIRED = ['specversion', 'id', 'source', 'type'] as const;

/** The CloudEvents SDK fills in a missing specversion, id or source; the spec requires all four, so we check the wire. */
function missingAttributes(headers: IncomingHttpHeaders, body: string): string[] {
  if (!String(headers['content-type'] ?? '').startsWith('application/cloudevents+json'))
    return REQUIRED.filter((a) => !headers[`ce-${a}`]);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return [];
  } // the SDK refuses it with its own message
  const fields = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  return REQUIRED.filter((a) => typeof fields[a] !== 'string' || !fields[a]);
}
