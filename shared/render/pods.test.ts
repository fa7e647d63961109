import { describe, expect, it } from 'vitest';
import type { KubeClient } from '../kube/client.ts';
import { labelSelectorQuery, podsToJudge } from './pods.ts';
import { moduleReadiness } from './readiness.ts';
import type { RuntimeObject } from './render.ts';

describe('the pods of a StatefulSet', () => {
  it('are selected by matchLabels', () => {
    expect(labelSelectorQuery({ matchLabels: { app: 'a', tier: 'b' } })).toBe('app=a,tier=b');
  });

  it('and by matchExpressions alone or with matchLabels: In, NotIn, Exists, DoesNotExist', () => {
    expect(labelSelectorQuery({ matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] })).toBe(
      'app in (a,b)',
    );
    expect(
      labelSelectorQuery({
        matchLabels: { app: 'a' },
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['x'] },
          { key: 'kyma-project.io/module', operator: 'Exists' },
          { key: 'canary', operator: 'DoesNotExist' },
        ],
      }),
    ).toBe('app=a,tier notin (x),kyma-project.io/module,!canary');
  });

  it('not at all when the selector is empty or has an operator the API server refuses', () => {
    expect(labelSelectorQuery(undefined)).toBeUndefined();
    expect(labelSelectorQuery({ matchLabels: {}, matchExpressions: [] })).toBeUndefined();
    expect(labelSelectorQuery({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toBeUndefined();
  });
});

describe('a StatefulSet whose selector has only matchExpressions', () => {
  it('has its pods listed and is judged by them (it used to stay Processing)', async () => {
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'm', namespace: 'kyma-system', generation: 1 },
      spec: { replicas: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['m'] }] } },
      status: { observedGeneration: 1, readyReplicas: 0 },
    } as RuntimeObject;
    const asked: (string | undefined)[] = [];
    const pod = {
      metadata: { name: 'm-0' },
      status: {
        containerStatuses: [{ name: 'c', started: false, state: { waiting: { reason: 'ImagePullBackOff' } } }],
      },
    };
    const cluster = {
      list: (_v: string, _k: string, opts: { labelSelector?: string }) => {
        asked.push(opts.labelSelector);
        return Promise.resolve({ items: [pod] });
      },
    } as unknown as KubeClient;
    const pods = await podsToJudge(cluster, [set]);
    expect(asked).toEqual(['app in (m)']);
    expect(moduleReadiness([set], { pods })).toEqual({
      state: 'Error',
      reason: 'StatefulSet kyma-system/m has 0/1 ready replicas; pod m-0 is not started (ImagePullBackOff)',
    });
  });
});
