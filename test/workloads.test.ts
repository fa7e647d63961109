import { AppsV1Api, CoreV1Api, type KubeConfig, type V1Deployment } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusters } from './clusters.ts';

const { runtimes } = clusters();
const [runtime] = runtimes as [KubeConfig];
const apps = runtime.makeApiClient(AppsV1Api);
const NAMESPACE = 'workloads-test';

function deployment(
  name: string,
  extra: { nodeSelector?: Record<string, string>; progressDeadlineSeconds?: number } = {},
): V1Deployment {
  const labels = { app: name };
  return {
    metadata: { name, namespace: NAMESPACE },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      ...(extra.progressDeadlineSeconds ? { progressDeadlineSeconds: extra.progressDeadlineSeconds } : {}),
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'manager', image: 'example.invalid/manager:1.0.0' }],
          ...(extra.nodeSelector ? { nodeSelector: extra.nodeSelector } : {}),
        },
      },
    },
  };
}

async function waitForCondition(name: string, type: string, status: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const current = await apps.readNamespacedDeployment({ name, namespace: NAMESPACE });
    const condition = current.status?.conditions?.find((c) => c.type === type && c.status === status);
    if (condition) return { deployment: current, condition };
    if (Date.now() > deadline) {
      throw new Error(`${name}: no ${type}=${status} in ${timeoutMs / 1000} s: ${JSON.stringify(current.status)}`);
    }
    await sleep(250);
  }
}

beforeAll(async () => {
  await runtime.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NAMESPACE } } });
});

describe('runtime cluster with controller-manager, scheduler and kwok', () => {
  it('rolls a Deployment out until Available=True, with status from the real controllers', async () => {
    await apps.createNamespacedDeployment({ namespace: NAMESPACE, body: deployment('manager') });
    const { deployment: rolled } = await waitForCondition('manager', 'Available', 'True');
    expect(rolled.status?.readyReplicas).toBe(2);
    expect(rolled.status?.observedGeneration).toBe(rolled.metadata?.generation);
    const pods = await runtime
      .makeApiClient(CoreV1Api)
      .listNamespacedPod({ namespace: NAMESPACE, labelSelector: 'app=manager' });
    expect(pods.items.map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
  });

  it('reports ProgressDeadlineExceeded for a Deployment whose pods cannot be scheduled', async () => {
    await apps.createNamespacedDeployment({
      namespace: NAMESPACE,
      body: deployment('unschedulable', { nodeSelector: { 'no-such-node': 'true' }, progressDeadlineSeconds: 3 }),
    });
    const { condition, deployment: stuck } = await waitForCondition('unschedulable', 'Progressing', 'False');
    expect(condition.reason).toBe('ProgressDeadlineExceeded');
    expect(stuck.status?.readyReplicas ?? 0).toBe(0);
  });
});
