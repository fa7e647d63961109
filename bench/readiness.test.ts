import { describe, expect, it } from 'vitest';
import { aKyma } from '../test/builders.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import type { State } from '../shared/core/objects.ts';
import { ReadinessTracker } from './readiness.ts';

const kyma = (state: Exclude<State, 'Unmanaged'>, modules: [string, State][]): Kyma =>
  aKyma({ name: 'k', status: { state, modules: modules.map(([name, s]) => ({ name, state: s })) } });

describe('ReadinessTracker', () => {
  it('records the first moment a Kyma is Ready with every expected module, and each module on its own', () => {
    const t = new ReadinessTracker(() => ['a', 'b']);
    t.observe(
      kyma('Processing', [
        ['a', 'Ready'],
        ['b', 'Processing'],
      ]),
      10,
    );
    t.observe(kyma('Ready', [['a', 'Ready']]), 20);
    expect(t.kymaReady.has('k')).toBe(false);
    t.observe(
      kyma('Ready', [
        ['a', 'Ready'],
        ['b', 'Ready'],
      ]),
      30,
    );
    t.observe(
      kyma('Ready', [
        ['a', 'Ready'],
        ['b', 'Ready'],
      ]),
      40,
    );
    expect(t.kymaReady.get('k')).toBe(30);
    expect(t.moduleReady.get('k/a')).toBe(10);
    expect(t.moduleReady.get('k/b')).toBe(30);
  });
});
