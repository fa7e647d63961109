import { describe, expect, it } from 'vitest';
import { withAppliedHash } from './apply-current.ts';
import { covers, isCurrent } from '../core/current.ts';
import { ANNOTATION } from '../core/vocabulary.ts';

const desired = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'm', namespace: 'kyma-system', labels: { a: 'b' } },
  spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'i:1', args: ['--x'] }] } } },
};
const applied = withAppliedHash(desired);
const live = (change: (o: typeof applied & { status?: object }) => void = () => undefined) => {
  const o = { ...structuredClone(applied), status: { readyReplicas: 1 } };
  Object.assign(o.metadata, { uid: 'u', resourceVersion: '7' });
  (o.spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolicy = 'IfNotPresent';
  change(o);
  return o;
};

describe('withAppliedHash', () => {
  it('is stable for equal objects, whatever the key order, and changes with any field', () => {
    const reordered = {
      kind: desired.kind,
      spec: desired.spec,
      metadata: desired.metadata,
      apiVersion: desired.apiVersion,
    };
    expect(withAppliedHash(reordered).metadata.annotations[ANNOTATION.appliedHash]).toBe(
      applied.metadata.annotations[ANNOTATION.appliedHash],
    );
    expect(
      withAppliedHash({ ...desired, spec: { ...desired.spec, replicas: 2 } }).metadata.annotations[
        ANNOTATION.appliedHash
      ],
    ).not.toBe(applied.metadata.annotations[ANNOTATION.appliedHash]);
    expect(withAppliedHash(applied)).toEqual(applied);
  });
});

describe('isCurrent', () => {
  it('holds for the object as applied, with server defaults, status and metadata added', () => {
    expect(isCurrent(live(), applied)).toBe(true);
  });

  it.each([
    ['missing', () => undefined],
    [
      'a field changed by someone else',
      () =>
        live((o) => {
          o.spec.replicas = 3;
        }),
    ],
    [
      'a list element changed',
      () =>
        live((o) => {
          (o.spec.template.spec.containers[0] ?? { args: [] }).args = ['--y'];
        }),
    ],
    [
      'a list grown',
      () =>
        live((o) => {
          o.spec.template.spec.containers[0]?.args.push('--z');
        }),
    ],
    [
      'a label removed',
      () =>
        live((o) => {
          o.metadata.labels = {} as typeof o.metadata.labels;
        }),
    ],
    [
      'applied by an older desired state (other hash)',
      () =>
        live((o) => {
          o.metadata.annotations[ANNOTATION.appliedHash] = 'older';
        }),
    ],
    [
      'never applied with a hash',
      () =>
        live((o) => {
          o.metadata.annotations = {} as typeof o.metadata.annotations;
        }),
    ],
    [
      'being deleted',
      () =>
        live((o) => {
          (o.metadata as Record<string, unknown>).deletionTimestamp = '2026-11-22T00:00:00Z';
        }),
    ],
  ])('does not hold when %s', (_what, make) => {
    expect(isCurrent(make(), applied)).toBe(false);
  });

  it('does not hold for a desired object without a hash', () => {
    expect(isCurrent(live(), desired)).toBe(false);
  });
});

describe('isCurrent of an object upstream applied (a takeover, ADR 40)', () => {
  const APPLIER = 'declarative.kyma-project.io/applier';
  /** As upstream left it: no applied hash, its applier's Apply entry among the managed fields. */
  const upstreams = (
    change: (o: ReturnType<typeof live>) => void = () => undefined,
    manager = APPLIER,
    operation = 'Apply',
  ) =>
    live((o) => {
      o.metadata.annotations = {} as typeof o.metadata.annotations;
      Object.assign(o.metadata, {
        managedFields: [
          { manager, operation },
          { manager: 'kube-controller-manager', operation: 'Update', subresource: 'status' },
        ],
      });
      change(o as ReturnType<typeof live>);
    });

  it('holds when the same field manager applied it and it has every desired field: nothing to write', () => {
    expect(isCurrent(upstreams(), applied, APPLIER)).toBe(true);
    const withoutAnnotations = upstreams((o) => {
      delete (o.metadata as { annotations?: unknown }).annotations;
    });
    expect(isCurrent(withoutAnnotations, applied, APPLIER)).toBe(true);
  });

  it.each([
    [
      'a field differs',
      () =>
        upstreams((o) => {
          o.spec.replicas = 3;
        }),
      APPLIER,
    ],
    ['another manager applied it', () => upstreams(() => undefined, 'someone-else'), APPLIER],
    ['the manager only updated it', () => upstreams(() => undefined, APPLIER, 'Update'), APPLIER],
    ['the caller names no field manager', () => upstreams(), undefined],
  ])('does not hold when %s', (_what, make, manager) => {
    expect(isCurrent(make(), applied, manager)).toBe(false);
  });
});

describe('covers', () => {
  it('compares scalars strictly and objects as subsets', () => {
    expect(covers({ a: 1, b: 2 }, { a: 1 })).toBe(true);
    expect(covers({ a: '1' }, { a: 1 })).toBe(false);
    expect(covers({ a: null }, { a: null })).toBe(true);
    expect(covers([], {})).toBe(false);
    expect(covers({ a: [1, 2] }, { a: [1] })).toBe(false);
  });
});
