import { describe, expect, it } from 'vitest';
import type { SyncedResource } from '../../shared/core/manifest.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { versionsOf } from './settled.ts';

const synced: SyncedResource[] = [
  { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'kyma-system', name: 'm' },
  { group: '', version: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: 'c' },
  { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', namespace: '', name: 'ms.x.io' },
];
const found = (apiVersion: string, kind: string, name: string, resourceVersion: string, namespace?: string) =>
  ({ apiVersion, kind, metadata: { name, resourceVersion, ...(namespace ? { namespace } : {}) } }) as RuntimeObject;
const objects = [
  found('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'ms.x.io', '7'),
  found('v1', 'ConfigMap', 'c', '12', 'kyma-system'),
  found('apps/v1', 'Deployment', 'm', '30', 'kyma-system'),
];

describe('versionsOf (what a settled module is remembered at, ADR 92)', () => {
  it("gives the objects' resourceVersions in the order the Manifest records them, whatever order they came in", () => {
    expect(versionsOf(synced, objects)).toBe('30,12,7');
  });

  it.each([
    ['one is not there', [objects[0], null, objects[2]]],
    ['one could not be read', [undefined, ...objects.slice(1)]],
    [
      'one has no resourceVersion',
      [{ ...objects[0], metadata: { name: 'ms.x.io' } } as RuntimeObject, ...objects.slice(1)],
    ],
    ['one is in another namespace', [objects[0], found('v1', 'ConfigMap', 'c', '12', 'other'), objects[2]]],
  ])('is undefined when %s', (_, given) => {
    expect(versionsOf(synced, given)).toBeUndefined();
  });

  it('tells a moved object from the one remembered', () => {
    const moved = [objects[0], found('v1', 'ConfigMap', 'c', '13', 'kyma-system'), objects[2]];
    expect(versionsOf(synced, moved)).not.toBe(versionsOf(synced, objects));
  });

  it('is empty for a module that records no objects', () => {
    expect(versionsOf([], objects)).toBe('');
  });
});
