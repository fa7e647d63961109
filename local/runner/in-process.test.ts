import { CloudEvent } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import { binaryMessage, eventFromHttp } from '../eventing/event-message.ts';
import { deliveredCopy, deliveryOutcomeOf } from './in-process.ts';

const event = () =>
  new CloudEvent({
    type: 'dev.knative.apiserver.resource.update',
    source: 'https://kcp',
    subject: '/apis/x',
    kind: 'Kyma',
    lane: 'user',
    knativebrokerttl: 254,
    data: { metadata: { name: 'k', labels: { a: 'b' } } },
  });

describe('an in-process delivery', () => {
  it('hands over what a binary-mode HTTP delivery would: attributes as text, the same data', () => {
    const given = event();
    const { headers, body } = binaryMessage(given);
    const overHttp = eventFromHttp(headers, Buffer.from(typeof body === 'string' ? body : Buffer.from(body)));
    const copy = deliveredCopy(given);
    expect(copy).toEqual(JSON.parse(JSON.stringify({ ...overHttp })));
    expect(copy['knativebrokerttl']).toBe('254');
  });

  it('gives the subscribers data none can change: publishing handed it over, frozen in place (ADR 51)', () => {
    const given = event();
    const copy = deliveredCopy(given) as unknown as { data: { metadata: { labels: Record<string, string> } } };
    expect(() => (copy.data.metadata.labels['a'] = 'changed')).toThrow(TypeError);
    const own = given.data as { metadata: { labels: Record<string, string> } };
    expect(() => (own.metadata.labels['a'] = "the producer's own")).toThrow(TypeError);
    expect(copy.data.metadata.labels['a']).toBe('b');
    expect(deliveredCopy(given)['data'], 'every Trigger of the event gets the same data').toBe(copy.data);
  });

  it('hands binary data over as a copy of its bytes (typed arrays cannot be frozen)', () => {
    const bytes = Buffer.from('ping');
    const copy = deliveredCopy(new CloudEvent({ type: 't', source: 's', data: bytes }));
    expect(copy['data']).toEqual(bytes);
    expect(copy['data']).not.toBe(bytes);
  });

  it("reads the function's outcome as the broker reads the HTTP answer: 204, a reply, a retried or final error", () => {
    expect(deliveryOutcomeOf({ status: 204 })).toEqual({ kind: 'acked', status: 204 });
    const reply = event();
    expect(deliveryOutcomeOf({ status: 200, reply })).toEqual({ kind: 'replied', status: 200, reply });
    const waiting = new NotYetReadyError('Kyma deletion continues after SetKymaStateDeleting');
    expect(deliveryOutcomeOf({ status: waiting.status, error: waiting })).toEqual({
      kind: 'failed',
      retryable: true,
      status: 503,
      error:
        'subscriber answered 503: {"code":"LCM_ERR_NOT_YET_READY","message":"Kyma deletion continues after SetKymaStateDeleting"}',
    });
    expect(deliveryOutcomeOf({ status: 400, error: waiting })).toMatchObject({
      kind: 'failed',
      retryable: false,
      status: 400,
    });
  });
});
