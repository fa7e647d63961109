import type { CloudEvent } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { announcer } from './announce.ts';
import { withinCall } from './call-context.ts';
import { LANE } from './events.ts';

const manifest = {
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Manifest',
  metadata: { name: 'kyma-1-mike-1', namespace: 'kcp-system', resourceVersion: '42' },
};

function sink() {
  const sent: CloudEvent<unknown>[] = [];
  return { sent, send: async (e: CloudEvent<unknown>) => void sent.push(e) };
}

describe('a write in the user lane is announced at once (ADR 73)', () => {
  it("sends the API server's event about the written object, from the writer, in the user lane", async () => {
    const { sent, send } = sink();
    await withinCall({ lane: 'user' }, () => announcer(send, 'render-manifest', true)('add', manifest));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: 'dev.knative.apiserver.resource.add',
      source: '/lifecycle-manager/render-manifest',
      kind: 'Manifest',
      name: 'kyma-1-mike-1',
      namespace: 'kcp-system',
      [LANE]: 'user',
      data: manifest,
    });
    expect(sent[0]?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  });

  it('sends nothing outside the user lane or when turned off; a failed send is left to the API server', async () => {
    const { sent, send } = sink();
    await announcer(send, 'apply-remote', true)('update', manifest);
    await withinCall({ lane: 'background' }, () => announcer(send, 'apply-remote', true)('update', manifest));
    await withinCall({ lane: 'user' }, () => announcer(send, 'apply-remote', false)('update', manifest));
    expect(sent).toEqual([]);
    const failing = async () => Promise.reject(new Error('ingress down'));
    await expect(
      withinCall({ lane: 'user' }, () => announcer(failing, 'apply-remote', true)('update', manifest)),
    ).resolves.toBeUndefined();
  });
});
