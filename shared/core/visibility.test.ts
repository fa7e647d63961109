import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import { restrictionProblem, selectorMatches } from './visibility.ts';

const kyma = (labels: Record<string, string>) => aKyma({ labels });

describe('selectorMatches (metav1.LabelSelector against the Kyma labels)', () => {
  it('matchLabels and matchExpressions together', () => {
    const selector = {
      matchLabels: { tier: 'gold' },
      matchExpressions: [
        { key: 'region', operator: 'In', values: ['eu', 'us'] },
        { key: 'trial', operator: 'DoesNotExist' },
      ],
    };
    expect(selectorMatches(kyma({ tier: 'gold', region: 'eu' }), selector)).toBe(true);
    expect(selectorMatches(kyma({ tier: 'gold', region: 'ap' }), selector)).toBe(false);
    expect(selectorMatches(kyma({ tier: 'gold', region: 'us', trial: 'yes' }), selector)).toBe(false);
    expect(selectorMatches(kyma({ region: 'eu' }), selector)).toBe(false);
  });
  it('NotIn and Exists; an unknown operator never matches', () => {
    expect(
      selectorMatches(kyma({ region: 'eu' }), {
        matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['us'] }],
      }),
    ).toBe(true);
    expect(
      selectorMatches(kyma({}), { matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['us'] }] }),
    ).toBe(true);
    expect(
      selectorMatches(kyma({ region: 'us' }), {
        matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['us'] }],
      }),
    ).toBe(false);
    expect(selectorMatches(kyma({ region: 'us' }), { matchExpressions: [{ key: 'region', operator: 'Exists' }] })).toBe(
      true,
    );
    expect(
      selectorMatches(kyma({ region: 'us' }), { matchExpressions: [{ key: 'region', operator: 'Gt', values: ['1'] }] }),
    ).toBe(false);
  });
  it('a nil or empty selector never matches', () => {
    expect(selectorMatches(kyma({ a: 'b' }), undefined)).toBe(false);
    expect(selectorMatches(kyma({ a: 'b' }), {})).toBe(false);
    expect(selectorMatches(kyma({ a: 'b' }), { matchLabels: {}, matchExpressions: [] })).toBe(false);
  });
});

describe('restrictionProblem (upstream restricted modules)', () => {
  const selector = {
    matchExpressions: [{ key: 'kyma-project.io/global-account-id', operator: 'In', values: ['ga-1'] }],
  };
  it('a listed module only where its selector matches; without a selector nowhere', () => {
    expect(
      restrictionProblem(kyma({ 'kyma-project.io/global-account-id': 'ga-1' }), 'deployer', selector, ['deployer']),
    ).toBe('');
    expect(
      restrictionProblem(kyma({ 'kyma-project.io/global-account-id': 'ga-2' }), 'deployer', selector, ['deployer']),
    ).toBe('module deployer is restricted and Kyma k1 does not match its kymaSelector');
    expect(restrictionProblem(kyma({}), 'deployer', undefined, ['deployer'])).toBe(
      'module deployer is restricted and Kyma k1 does not match its kymaSelector',
    );
  });
  it('a module not listed: allowed without a selector, nowhere with one', () => {
    expect(restrictionProblem(kyma({}), 'keda', undefined, ['deployer'])).toBe('');
    expect(
      restrictionProblem(kyma({ 'kyma-project.io/global-account-id': 'ga-1' }), 'keda', selector, ['deployer']),
    ).toContain('is not a restricted module');
  });
});
