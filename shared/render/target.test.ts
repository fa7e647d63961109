import { describe, expect, it } from 'vitest';
import { parseModuleObjects, prepare } from './render.ts';
import { isFrozenDeep } from '../core/frozen.ts';
import { moduleObjectsOf } from './target.ts';

const yaml = `apiVersion: v1
kind: ConfigMap
metadata: { name: a, namespace: kyma-system }
data: { version: 1.0.0 }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: b, namespace: kyma-system }
`;

describe('moduleObjectsOf', () => {
  it('gives what parsing gives, the same deep-frozen objects each call: no call can change them (ADR 89)', () => {
    const first = moduleObjectsOf(yaml);
    expect(first).toEqual(parseModuleObjects(yaml));
    expect(moduleObjectsOf(yaml)).toBe(first);
    expect(isFrozenDeep(first)).toBe(true);
    const [configMap] = first as unknown as [{ data: Record<string, string> }];
    expect(() => {
      configMap.data['version'] = 'changed';
    }).toThrow(TypeError);
    // prepare copies before it changes an object: the copy is its own.
    const [prepared] = prepare(first, { name: 'm', namespace: 'kcp-system' }, () => true);
    expect(prepared?.metadata.labels).toMatchObject({ 'operator.kyma-project.io/managed-by': 'kyma' });
    expect(moduleObjectsOf(yaml)).toEqual(parseModuleObjects(yaml));
  });

  it('refuses a broken manifest every time, not only the first', () => {
    const broken = 'apiVersion: v1\nkind: ConfigMap\n';
    expect(() => moduleObjectsOf(broken)).toThrow('lacks apiVersion, kind or metadata.name');
    expect(() => moduleObjectsOf(broken)).toThrow('lacks apiVersion, kind or metadata.name');
  });
});
