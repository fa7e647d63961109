import { describe, expect, it } from 'vitest';
import { imageKey, localizeImages, withPullSecret } from './images.ts';
import type { RuntimeObject } from './render.ts';

const deployment = (name: string, containers: unknown[], init: unknown[] = []): RuntimeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'kyma-system' },
  spec: { template: { spec: { containers, initContainers: init } } },
});
const configMap: RuntimeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c' },
  data: { image: 'x/sample-manager:1.0.0' },
};
const podOf = (o: RuntimeObject | undefined) =>
  (o as unknown as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec;

describe('imageKey', () => {
  it('is the last path segment with its tag, digest ignored', () => {
    expect(imageKey('europe-docker.pkg.dev/kyma/prod/sample-manager:2.3.1')).toBe('sample-manager:2.3.1');
    expect(imageKey('registry.example.net:5000/prod/sample-manager:2.3.1@sha256:2222')).toBe('sample-manager:2.3.1');
    expect(imageKey('registry.example.net:5000/prod/sample-manager')).toBeUndefined();
  });
});

describe('localizeImages', () => {
  const localized = ['mirror.example.net/prod/sample-manager:2.3.1@sha256:2222', 'mirror.example.net/base/sidecar:1.0'];

  it('rewrites container and init container images and image-valued env of workloads, nothing else', () => {
    const objects = [
      deployment(
        'd',
        [
          {
            name: 'm',
            image: 'europe-docker.pkg.dev/kyma/sample-manager:2.3.1',
            env: [
              { name: 'SIDECAR', value: 'docker.io/base/sidecar:1.0' },
              { name: 'MODE', value: 'fast' },
              { name: 'OTHER', value: 'x/sidecar:2.0' },
            ],
          },
        ],
        [{ name: 'i', image: 'sidecar:1.0' }],
      ),
      configMap,
    ];
    const [d, c] = localizeImages(objects, localized);
    const pod = podOf(d) as {
      containers: { image: string; env: { value: string }[] }[];
      initContainers: { image: string }[];
    };
    expect(pod.containers[0]?.image).toBe('mirror.example.net/prod/sample-manager:2.3.1@sha256:2222');
    expect(pod.containers[0]?.env.map((e) => e.value)).toEqual([
      'mirror.example.net/base/sidecar:1.0',
      'fast',
      'x/sidecar:2.0',
    ]);
    expect(pod.initContainers[0]?.image).toBe('mirror.example.net/base/sidecar:1.0');
    expect(c).toEqual(configMap);
    expect(podOf(objects[0]).containers).toEqual([
      expect.objectContaining({ image: 'europe-docker.pkg.dev/kyma/sample-manager:2.3.1' }),
    ]);
  });
});

describe('withPullSecret', () => {
  const manager = {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    namespace: 'kyma-system',
    name: 'sample-manager',
  };

  it('adds the Secret to every workload once and the env var to the manager only', () => {
    const objects = [
      deployment('sample-manager', [{ name: 'm', image: 'a:1' }]),
      deployment('helper', [{ name: 'h', image: 'b:1' }]),
      configMap,
    ];
    const out = withPullSecret(objects, 'pull', manager);
    if ('error' in out) throw new Error(out.error);
    expect(podOf(out[0])).toMatchObject({
      imagePullSecrets: [{ name: 'pull' }],
      containers: [{ env: [{ name: 'SKR_IMG_PULL_SECRET', value: 'pull' }] }],
    });
    expect(podOf(out[1])).toMatchObject({ imagePullSecrets: [{ name: 'pull' }] });
    expect((podOf(out[1]).containers as { env?: unknown }[])[0]?.env).toBeUndefined();
    expect(out[2]).toEqual(configMap);
    const again = withPullSecret(out, 'pull', undefined);
    expect('error' in again && again.error).toBe('Deployment sample-manager already sets SKR_IMG_PULL_SECRET');
  });
});
