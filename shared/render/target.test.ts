import { describe, expect, it } from 'vitest';
import { parseModuleObjects } from './render.ts';
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
  it('gives what parsing gives, a copy of its own each call', () => {
    const first = moduleObjectsOf(yaml);
    expect(first).toEqual(parseModuleObjects(yaml));
    const [configMap] = first as unknown as [
      { data: Record<string, string>; metadata: { labels?: Record<string, string> } },
    ];
    configMap.data['version'] = 'changed';
    configMap.metadata.labels = { mine: 'yes' };
    expect(moduleObjectsOf(yaml)).toEqual(parseModuleObjects(yaml));
  });

  it('refuses a broken manifest every time, not only the first', () => {
    const broken = 'apiVersion: v1\nkind: ConfigMap\n';
    expect(() => moduleObjectsOf(broken)).toThrow('lacks apiVersion, kind or metadata.name');
    expect(() => moduleObjectsOf(broken)).toThrow('lacks apiVersion, kind or metadata.name');
  });
});
