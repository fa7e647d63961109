import { describe, expect, it } from 'vitest';
import { fieldsMatch, fieldTerms, labelsMatch, narrowerThan, selectorTerms } from './selectors.ts';

const object = (name: string, labels: Record<string, string>, namespace = 'kcp-system') => ({
  metadata: { name, namespace, labels },
});

describe('selectorTerms and labelsMatch', () => {
  it('matches equality, inequality, existence and absence terms as the API server does', () => {
    const terms = selectorTerms('a=1, b==2,c!=3,d,!e');
    expect(terms).toHaveLength(5);
    expect(labelsMatch(object('x', { a: '1', b: '2', d: '' }), terms ?? [])).toBe(true);
    expect(labelsMatch(object('x', { a: '1', b: '2', c: '3', d: '' }), terms ?? [])).toBe(false);
    expect(labelsMatch(object('x', { a: '1', b: '2' }), terms ?? [])).toBe(false);
    expect(labelsMatch(object('x', { a: '1', b: '2', d: '', e: 'x' }), terms ?? [])).toBe(false);
    expect(labelsMatch(object('x', { a: '2', b: '2', d: '' }), terms ?? [])).toBe(false);
  });

  it('takes an empty selector as everything and refuses set-based ones (left to the API server)', () => {
    expect(selectorTerms('')).toEqual([]);
    expect(selectorTerms(undefined)).toEqual([]);
    expect(selectorTerms('env in (a,b)')).toBeUndefined();
    expect(selectorTerms('env notin (a)')).toBeUndefined();
  });
});

describe('fieldTerms and fieldsMatch', () => {
  it('handles metadata.name and metadata.namespace only', () => {
    const terms = fieldTerms('metadata.name=m1');
    expect(terms).toBeDefined();
    expect(fieldsMatch(object('m1', {}), terms ?? [])).toBe(true);
    expect(fieldsMatch(object('m2', {}), terms ?? [])).toBe(false);
    expect(fieldsMatch(object('m1', {}, 'other'), fieldTerms('metadata.namespace=kcp-system') ?? [])).toBe(false);
    expect(fieldTerms('status.phase=Running')).toBeUndefined();
  });
});

describe('narrowerThan', () => {
  const scope = selectorTerms('operator.kyma-project.io/kyma-name') ?? [];
  it('serves a request only when everything it selects lies inside the cached part of the kind', () => {
    expect(narrowerThan(selectorTerms('operator.kyma-project.io/kyma-name=k1') ?? [], scope)).toBe(true);
    expect(narrowerThan(selectorTerms('operator.kyma-project.io/kyma-name') ?? [], scope)).toBe(true);
    expect(narrowerThan(selectorTerms('operator.kyma-project.io/kyma-name!=k1') ?? [], scope)).toBe(false);
    expect(narrowerThan(selectorTerms('other=1') ?? [], scope)).toBe(false);
    expect(narrowerThan([], scope)).toBe(false);
    expect(narrowerThan([], [])).toBe(true);
  });
});
