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

  it('gives the subscribers data nobody else has and none can change', () => {
    const given = event();
    const copy = deliveredCopy(given) as unknown as { data: { metadata: { labels: Record<string, string> } } };
    expect(() => (copy.data.metadata.labels['a'] = 'changed')).toThrow(TypeError);
    (given.data as { metadata: { labels: Record<string, string> } }).metadata.labels['a'] = "the producer's own";
    expect(copy.data.metadata.labels['a']).toBe('b');
    expect(deliveredCopy(given)['data'], 'one copy per event').toBe(copy.data);
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
