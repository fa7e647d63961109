// The Triggers' dead-letter sink (ADR 60): an event a Trigger gave up on arrives with Knative's `knativeerrordest` (the
// subscriber) and `knativeerrorcode`; counted by function for the LifecycleDeadLetters alert, logged without its data.
// The resync picks its object up again (ADR 6): nothing is lost.
import { Counter, type Registry } from 'prom-client';
import type { IncomingMessage } from 'node:http';
import { InvalidEventError } from '../../shared/host/errors.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { parseEvent } from '../../shared/host/parse-event.ts';
import { requestBody } from '../../shared/host/request-body.ts';

const BODY_LIMIT = 1024 * 1024;
const NAME = /^[a-z][a-z0-9-]{0,62}$/;

/** PURE. The function a dead letter was meant for: the first DNS label of its subscriber's address (a Knative
 * Service's `http://<name>.<namespace>.svc.cluster.local`), else "unknown". */
export function deadLetterFunction(destination: unknown): string {
  const host = typeof destination === 'string' && URL.canParse(destination) ? new URL(destination).hostname : '';
  const label = host.split('.')[0] ?? '';
  return NAME.test(label) ? label : 'unknown';
}

/** POST /dead-letters: counts and logs one dead letter; 202, or 400 for what is not a CloudEvent. */
export function deadLetterSink(registry: Registry, log: Logger) {
  const letters = new Counter({
    name: 'lifecycle_dead_letters_total',
    help: 'Events a Trigger gave up on (delivered to the dead-letter sink), by the function they were meant for.',
    labelNames: ['fn'],
    registers: [registry],
  });
  return async (req: IncomingMessage): Promise<{ status: number; type: string; body: string }> => {
    const body = await requestBody(req, BODY_LIMIT);
    const event =
      body === undefined ? new InvalidEventError('larger than 1 MiB') : parseEvent(req.headers, body.toString());
    if (event instanceof InvalidEventError) return { status: 400, type: 'text/plain', body: `${event.message}\n` };
    const fn = deadLetterFunction(event.knativeerrordest);
    letters.inc({ fn });
    const text = (name: string) => (typeof event[name] === 'string' ? event[name] : undefined);
    log.warn(
      {
        fn,
        ceId: event.id,
        ceType: event.type,
        object: text('kind') && `${text('kind')} ${text('namespace') ?? ''}/${text('name') ?? ''}`,
        status: text('knativeerrorcode') ?? event.knativeerrorcode,
        traceparent: text('traceparent'),
      },
      'dead letter: a Trigger gave up on this event; the resync picks its object up again',
    );
    return { status: 202, type: 'text/plain', body: '' };
  };
}
