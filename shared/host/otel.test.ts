import { describe, expect, it } from 'vitest';
import { callAttributes, exportCall, traceRequest } from './otel.ts';

const kymaKey = { kind: 'Kyma', apiVersion: 'operator.kyma-project.io/v1beta2', namespace: 'kcp-system', name: 'k1' };
const manifestKey = { ...kymaKey, kind: 'Manifest', name: 'k1-alpha-1' };
const event = { id: 'e1', type: 'dev.knative.apiserver.resource.update', source: 's', specversion: '1.0' };

describe('OpenTelemetry export (ADR 59)', () => {
  it("names the call's Kyma, module and runtime from its object, or from the object an ApiServerSource event carries", () => {
    expect(callAttributes(event, kymaKey)).toEqual({
      'cloudevents.event_id': 'e1',
      'cloudevents.event_type': 'dev.knative.apiserver.resource.update',
      'k8s.object': 'Kyma kcp-system/k1',
      'kyma.name': 'k1',
      'kyma.runtime': 'kcp-system/k1',
    });
    const labels = { 'operator.kyma-project.io/kyma-name': 'k1', 'operator.kyma-project.io/module-name': 'alpha' };
    expect(callAttributes({ ...event, data: { metadata: { labels } } }, manifestKey)).toMatchObject({
      'k8s.object': 'Manifest kcp-system/k1-alpha-1',
      'kyma.name': 'k1',
      'kyma.module': 'alpha',
    });
    expect(
      callAttributes(
        { ...event, data: { metadata: { labels: { 'operator.kyma-project.io/kyma-name': 7 } } } },
        manifestKey,
      ),
    ).not.toHaveProperty('kyma.name');
  });

  it('does nothing while export is off: no span, the request sent as it is', async () => {
    const attributes = () => {
      throw new Error('not called while export is off');
    };
    const span = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), sampled: true };
    expect(exportCall('apply-remote', span, attributes)).toBeUndefined();
    await expect(
      traceRequest('GET', '/api/v1/namespaces', 'https://kcp', async () => ({ status: 200 })),
    ).resolves.toEqual({
      status: 200,
    });
  });
});
