// One delivery attempt of an event to a Trigger's subscriber, and what its answer means, as in Knative's dispatcher.
import type { CloudEvent } from 'cloudevents';
import { binaryMessage, carriesCloudEvent, eventFromHttp } from './event-message.ts';
import { post, type HttpAnswer } from './http-post.ts';
import type { DeliveryOptions } from './triggers.ts';

export type DeliveryOutcome =
  | { readonly kind: 'acked'; readonly status: number }
  | { readonly kind: 'replied'; readonly status: number; readonly reply: CloudEvent<unknown> }
  | { readonly kind: 'failed'; readonly retryable: boolean; readonly status?: number; readonly error: string };

/** Knative retries network errors, timeouts, every 5xx, 404, 408, 409 and 429; never other statuses. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 404 || status === 408 || status === 409 || status === 429;
}

/** Wait before retry `n` (1-based): exponential delay × 2^n, linear delay × n. */
export function backoffMs(delivery: DeliveryOptions, retryNumber: number): number {
  const factor = delivery.backoffPolicy === 'linear' ? retryNumber : 2 ** retryNumber;
  return delivery.backoffDelayMs * factor;
}

/** A subscriber in this process (the local runner's functions): called with the event, no HTTP in between. */
export type InProcessSubscriber = (event: CloudEvent<unknown>) => Promise<DeliveryOutcome>;

/** One call of an in-process subscriber, with the Trigger's timeout and the broker's stop as an HTTP delivery has them;
 * none once the broker has stopped (a delivery that waited for a slot meanwhile). */
export async function deliverInProcess(
  subscriber: InProcessSubscriber,
  event: CloudEvent<unknown>,
  timeoutMs: number | undefined,
  signal: AbortSignal,
): Promise<DeliveryOutcome> {
  if (signal.aborted) return { kind: 'failed', retryable: true, error: 'the broker stopped' };
  let timer: NodeJS.Timeout | undefined;
  let stopped: (() => void) | undefined;
  const cut = new Promise<DeliveryOutcome>((resolve) => {
    const fail = (error: string) => resolve({ kind: 'failed', retryable: true, error });
    if (timeoutMs !== undefined) timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
    stopped = () => fail('the broker stopped');
    signal.addEventListener('abort', stopped, { once: true });
  });
  try {
    return await Promise.race([
      subscriber(event).catch((e: unknown): DeliveryOutcome => ({
        kind: 'failed',
        retryable: true,
        error: `the subscriber failed: ${(e as Error).message}`,
      })),
      cut,
    ]);
  } finally {
    clearTimeout(timer);
    // The broker's signal lives as long as the broker: a listener left on it per delivery makes every later
    // addEventListener slower (it scans them all) and was most of the CPU at 5,000 Kymas.
    if (stopped) signal.removeEventListener('abort', stopped);
  }
}

/** POSTs the event in binary mode (with `Prefer: reply`, as Knative's dispatcher does) and classifies the answer. */
export async function deliverOnce(
  url: string,
  event: CloudEvent<unknown>,
  timeoutMs: number | undefined,
  signal: AbortSignal,
): Promise<DeliveryOutcome> {
  try {
    const message = binaryMessage(event);
    const answer = await post(url, {
      headers: { ...message.headers, prefer: 'reply' },
      body: message.body,
      timeoutMs,
      signal,
    });
    return outcomeOf(answer);
  } catch (e) {
    return { kind: 'failed', retryable: true, error: `no answer from ${url}: ${(e as Error).message}` };
  }
}

export function outcomeOf(answer: HttpAnswer): DeliveryOutcome {
  const { status } = answer;
  if (status < 200 || status >= 300) {
    return {
      kind: 'failed',
      retryable: isRetryableStatus(status),
      status,
      error: `subscriber answered ${status}${snippet(answer.body)}`,
    };
  }
  if (carriesCloudEvent(answer.headers)) {
    try {
      return { kind: 'replied', status, reply: eventFromHttp(answer.headers, answer.body) };
    } catch (e) {
      return badGateway(status, `the reply is not a valid CloudEvent: ${(e as Error).message}`);
    }
  }
  if (answer.body.byteLength === 0) return { kind: 'acked', status };
  return badGateway(
    status,
    `received a non-empty response not recognized as CloudEvent<unknown>${snippet(answer.body)}`,
  );
}

/** Knative's filter turns an unusable 2xx answer into 502 Bad Gateway, which is retried. */
function badGateway(status: number, error: string): DeliveryOutcome {
  return { kind: 'failed', retryable: true, status: 502, error: `subscriber answered ${status}, ${error}` };
}

function snippet(body: Buffer): string {
  const text = body.toString('utf8', 0, Math.min(body.byteLength, 200)).trim();
  return text ? `: ${text}` : '';
}
