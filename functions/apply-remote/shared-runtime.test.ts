// A Kyma on a shared runtime API server (docs/adr/0013): what its module objects look like there. Pure.
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { OWN_RUNTIME } from '../../shared/core/runtime-scope.ts';
import { pruneWaves } from '../../shared/render/prune.ts';
import { manifestOnRuntime, prepare, type RuntimeObject } from '../../shared/render/render.ts';

const shared = { namespace: 'tenant-7', shared: true };
const objects: RuntimeObject[] = [
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'samples.x.io' } },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'op', namespace: 'kyma-system' } },
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'other', namespace: 'istio-system' } },
];
const scopeOf = (_: string, kind: string) => kind !== 'CustomResourceDefinition';
const owner = { name: 'kyma-a-sample-1', namespace: 'kcp-system' };

describe('module objects on a shared runtime', () => {
  it('puts every namespaced object into the runtime namespace', () => {
    expect(prepare(objects, owner, scopeOf, shared).map((o) => o.metadata.namespace)).toEqual([
      undefined,
      'tenant-7',
      'tenant-7',
      'tenant-7',
    ]);
    expect(prepare(objects, owner, scopeOf, OWN_RUNTIME).map((o) => o.metadata.namespace)).toEqual([
      undefined,
      'kyma-system',
      'default',
      'istio-system',
    ]);
  });
  it('marks shared cluster-scoped objects with nothing that names one Manifest, so two Kymas apply the same object', () => {
    const [crdA] = prepare(objects, owner, scopeOf, shared);
    const [crdB] = prepare(objects, { ...owner, name: 'kyma-b-sample-1' }, scopeOf, shared);
    expect(crdA).toEqual(crdB);
    expect(crdA?.metadata.annotations).not.toHaveProperty(['deprecated-operator.kyma-project.io/owned-by']);
    expect(crdA?.metadata.labels).not.toHaveProperty(['app.kubernetes.io/component']);
    const [, deployment] = prepare(objects, owner, scopeOf, shared);
    expect(deployment?.metadata.annotations?.['deprecated-operator.kyma-project.io/owned-by']).toBe(
      'kcp-system/kyma-a-sample-1',
    );
  });
  it('never prunes a cluster-scoped object there; on a runtime of its own it does', () => {
    const synced = [
      {
        group: 'apiextensions.k8s.io',
        version: 'v1',
        kind: 'CustomResourceDefinition',
        name: 'samples.x.io',
        namespace: '',
      },
      { group: 'apps', version: 'v1', kind: 'Deployment', name: 'op', namespace: 'tenant-7' },
    ];
    expect(
      pruneWaves(synced, [], true)
        .flat()
        .map((r) => r.kind),
    ).toEqual(['Deployment']);
    expect(
      pruneWaves(synced, [], false)
        .flat()
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['CustomResourceDefinition', 'Deployment']);
  });
  it('moves a namespaced default CR into the runtime namespace, leaves a cluster-scoped one and a runtime of its own alone', () => {
    const manifest = {
      metadata: { name: 'm', namespace: 'kcp-system' },
      spec: { resource: { apiVersion: 'x.io/v1', kind: 'Sample', metadata: { name: 'm', namespace: 'kyma-system' } } },
    } as unknown as Manifest;
    expect(
      (manifestOnRuntime(manifest, shared).spec?.resource as { metadata: { namespace: string } }).metadata.namespace,
    ).toBe('tenant-7');
    expect(manifestOnRuntime(manifest, OWN_RUNTIME)).toBe(manifest);
    const clusterScoped = {
      ...manifest,
      spec: { resource: { apiVersion: 'x.io/v1', kind: 'Sample', metadata: { name: 'm' } } },
    } as unknown as Manifest;
    expect(manifestOnRuntime(clusterScoped, shared)).toBe(clusterScoped);
  });
});
