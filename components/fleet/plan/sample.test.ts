import { describe, expect, it } from 'vitest';
import type { ModulePlan } from './classify.ts';
import { pickSamples } from './sample.ts';

const plan = (module: string, from: string, to: string, outcome: ModulePlan['outcome'] = 'upgrade'): ModulePlan => ({
  module,
  from,
  to,
  outcome,
  message: '',
  removes: false,
});

describe('pickSamples', () => {
  const plans = [
    { kyma: 'c', modules: [plan('alpha', '1.0.0', '2.0.0')] },
    { kyma: 'a', modules: [plan('alpha', '1.0.0', '2.0.0'), plan('beta', '1.0.0', '1.1.0')] },
    { kyma: 'b', modules: [plan('alpha', '1.0.0', '2.0.0')] },
    { kyma: 'd', modules: [plan('alpha', '0.9.0', '2.0.0'), plan('beta', '1.0.0', '0.9.0', 'refused')] },
  ];

  it('dry-runs the first n Kymas by name of each (module, from → to) group; the others are the same change as the first', () => {
    expect(Object.fromEntries(pickSamples(plans, 1))).toEqual({
      'a/alpha': { sample: true },
      'a/beta': { sample: true },
      'b/alpha': { sameAs: 'a' },
      'c/alpha': { sameAs: 'a' },
      'd/alpha': { sample: true },
    });
    expect(Object.fromEntries(pickSamples(plans, 2))).toMatchObject({
      'b/alpha': { sample: true },
      'c/alpha': { sameAs: 'a' },
    });
  });

  it('without sampling every Kyma is dry-run; refusals and waits never touch the runtime', () => {
    const picks = pickSamples(plans, undefined);
    expect([...picks.values()].every((p) => 'sample' in p)).toBe(true);
    expect(picks.has('d/beta')).toBe(false);
  });
});
