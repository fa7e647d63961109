import { describe, expect, it } from 'vitest';
import { pruneWaves } from './prune.ts';
import { moduleReadiness, SETTLE_MS } from './readiness.ts';
import { parseModuleObjects, prepare, scopeFromCrds, type RuntimeObject } from './render.ts';

const deployment = (conditions: object[], extra: object = {}): RuntimeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'manager', namespace: 'kyma-system', generation: 1 } as RuntimeObject['metadata'],
  status: { observedGeneration: 1, conditions },
  ...extra,
});

describe('moduleReadiness (first Deployment or StatefulSet)', () => {
  it.each([
    [
      'available',
      [
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
        { type: 'Available', status: 'True' },
      ],
      'Ready',
    ],
    [
      'rolling out',
      [
        { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' },
        { type: 'Available', status: 'False' },
      ],
      'Processing',
    ],
    [
      'new replica set created',
      [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated' }],
      'Processing',
    ],
    [
      'deadline exceeded',
      [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out' }],
      'Error',
    ],
    ['not looked at yet', [], 'Processing'],
  ])('Deployment %s → %s', (_, conditions, state) => {
    expect(moduleReadiness([deployment(conditions)]).state).toBe(state);
  });

  it('names the workload and the reason when it fails', () => {
    const r = moduleReadiness([
      deployment([{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'timed out' }]),
    ]);
    expect(r.reason).toBe('Deployment kyma-system/manager is not progressing (ProgressDeadlineExceeded: timed out)');
  });

  it('is Processing while the controller has not observed the latest generation', () => {
    const stale = deployment([
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
      { type: 'Available', status: 'True' },
    ]);
    stale.metadata = { ...stale.metadata, generation: 2 } as RuntimeObject['metadata'];
    expect(moduleReadiness([stale]).state).toBe('Processing');
  });

  it.each([
    [2, 2, 'Ready'],
    [2, 1, 'Processing'],
  ])('StatefulSet with %i wanted and %i ready → %s', (wanted, ready, state) => {
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { replicas: wanted },
      status: { readyReplicas: ready },
    } as RuntimeObject;
    expect(moduleReadiness([set]).state).toBe(state);
  });

  it('turns a workload its controller does not observe, or a Deployment without rollout status, Error a minute after it was applied (upstream: at once)', () => {
    const applied = '2026-11-25T10:00:00Z';
    const at = Date.parse(applied);
    const fresh = deployment([], {
      metadata: {
        name: 'manager',
        namespace: 'kyma-system',
        generation: 1,
        managedFields: [{ time: applied }, { time: '2026-11-25T09:00:00Z', subresource: 'status' }],
      },
    });
    expect(moduleReadiness([fresh], { now: at + SETTLE_MS - 1 })).toEqual({
      state: 'Processing',
      reason: 'Deployment kyma-system/manager has no rollout status yet',
    });
    expect(moduleReadiness([fresh], { now: at + SETTLE_MS + 5_000 })).toEqual({
      state: 'Error',
      reason: 'Deployment kyma-system/manager has no rollout status after 65 s',
    });
    const unobserved = { ...fresh, metadata: { ...fresh.metadata, generation: 3 } } as RuntimeObject;
    expect(moduleReadiness([unobserved], { now: at + 90_000 }).reason).toBe(
      'Deployment kyma-system/manager is not observed by its controller after 90 s',
    );
  });

  describe('StatefulSet not all ready: the first container of the first pod (upstream)', () => {
    const created = '2026-11-25T10:00:00Z';
    const at = Date.parse(created);
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'kyma-system', creationTimestamp: created },
      spec: { replicas: 2 },
      status: { readyReplicas: 1 },
    } as RuntimeObject;
    const pod = (container: object | undefined, phase = 'Running') => ({
      metadata: { name: 'db-0', creationTimestamp: created },
      status: { phase, ...(container ? { containerStatuses: [{ name: 'db', ...container }] } : {}) },
    });
    it.each([
      ['started and ready', pod({ started: true, ready: true }), SETTLE_MS * 2, 'Ready'],
      ['started, not ready', pod({ started: true, ready: false }), SETTLE_MS * 2, 'Processing'],
      [
        'crash-looping',
        pod({ started: false, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } } }),
        1_000,
        'Error',
      ],
      ['pending, just created', pod(undefined, 'Pending'), 1_000, 'Processing'],
      ['pending for over a minute', pod(undefined, 'Pending'), SETTLE_MS + 1, 'Error'],
    ])('%s → %s', (_, first, after, state) => {
      expect(moduleReadiness([set], { now: at + after, pods: [first] }).state).toBe(state);
    });
    it('no pods: Processing at first, then Error; pods not read: Processing', () => {
      expect(moduleReadiness([set], { now: at + 1_000, pods: [] }).state).toBe('Processing');
      expect(moduleReadiness([set], { now: at + SETTLE_MS, pods: [] })).toEqual({
        state: 'Error',
        reason: 'StatefulSet kyma-system/db has 1/2 ready replicas and no pods after 60 s',
      });
      expect(moduleReadiness([set], { now: at + SETTLE_MS * 10 }).state).toBe('Processing');
    });
    it('names the pod and why its container is not started', () => {
      expect(
        moduleReadiness([set], {
          now: at,
          pods: [pod({ started: false, state: { waiting: { reason: 'ImagePullBackOff', message: 'no such image' } } })],
        }).reason,
      ).toBe(
        'StatefulSet kyma-system/db has 1/2 ready replicas; pod db-0 is not started (ImagePullBackOff: no such image)',
      );
    });
  });

  it('is Ready when the module has no workload', () => {
    expect(moduleReadiness([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }]).state).toBe('Ready');
  });
});

describe('pruneWaves', () => {
  const r = (kind: string, name: string) => ({ group: '', version: 'v1', kind, name, namespace: 'kyma-system' });
  it('deletes what the new version dropped, operator kinds in the second wave, never Namespace kyma-system', () => {
    const synced = [
      r('ConfigMap', 'old'),
      r('Deployment', 'old-manager'),
      r('Namespace', 'kyma-system'),
      r('Secret', 'kept'),
    ];
    expect(pruneWaves(synced, [r('Secret', 'kept')])).toEqual([
      [r('ConfigMap', 'old')],
      [r('Deployment', 'old-manager')],
    ]);
    expect(pruneWaves(synced, synced)).toEqual([]);
  });
});

describe('rendering a raw manifest', () => {
  const yaml = [
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: samples.x.io}\nspec: {group: x.io, scope: Cluster, names: {kind: Sample}, versions: [{name: v1}]}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}',
    'apiVersion: x.io/v1\nkind: Sample\nmetadata: {name: s, namespace: wrong}',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}',
    '',
  ].join('\n---\n');

  it('drops duplicates, labels and annotates every object, and normalises namespaces', () => {
    const parsed = parseModuleObjects(yaml);
    const crdScope = scopeFromCrds(parsed);
    const out = prepare(parsed, { name: 'k1-sample-1', namespace: 'kcp-system' }, (v, k) =>
      k === 'ConfigMap' ? true : crdScope(v, k),
    );
    expect(out.map((o) => `${o.kind}:${o.metadata.namespace ?? '-'}`)).toEqual([
      'CustomResourceDefinition:-',
      'ConfigMap:default',
      'Sample:-',
    ]);
    expect(out[1]?.metadata.labels).toMatchObject({
      'operator.kyma-project.io/managed-by': 'kyma',
      'app.kubernetes.io/component': 'k1-sample-1',
      'app.kubernetes.io/part-of': 'Kyma',
    });
    expect(out[1]?.metadata.annotations).toMatchObject({
      'deprecated-operator.kyma-project.io/owned-by': 'kcp-system/k1-sample-1',
    });
  });

  it.each([
    ['a document without kind', 'apiVersion: v1\nmetadata: {name: x}', 'lacks apiVersion, kind or metadata.name'],
    ['invalid YAML', 'kind: [unclosed', 'is not valid YAML'],
    [
      'an alias bomb',
      `a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\napiVersion: v1\nkind: X\nmetadata: {name: y}`,
      'alias',
    ],
  ])('refuses %s', (_, text, message) => {
    expect(() => parseModuleObjects(text)).toThrow(new RegExp(message, 'i'));
  });
});
