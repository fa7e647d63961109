import { describe, expect, it } from 'vitest';
import { aKyma, aManifest } from '../test/builders.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import type { State } from '../shared/core/objects.ts';
import { endStateOf } from './end-state.ts';

const kyma = (name: string, state: Exclude<State, 'Unmanaged'>, modules: [string, string, State][]): Kyma =>
  aKyma({ name, status: { state, modules: modules.map(([n, version, s]) => ({ name: n, version, state: s })) } });
const manifest = (module: string, version: string, state: State) =>
  aManifest({ name: `m-${module}`, module, version, state });

describe('the end state a run converged to', () => {
  it('counts Kymas, modules and Manifests by state and version, naming no Kyma', () => {
    const state = endStateOf(
      [kyma('a', 'Ready', [['alpha', '1.0.0', 'Ready']]), kyma('b', 'Ready', [['alpha', '1.0.0', 'Ready']])],
      [manifest('alpha', '1.0.0', 'Ready'), manifest('alpha', '1.0.0', 'Ready')],
    );
    expect(state).toMatchObject({
      kymas: { Ready: 2 },
      modules: { 'alpha@1.0.0:Ready': 2 },
      manifests: { 'alpha@1.0.0:Ready': 2 },
    });
  });
  it('gives equal states equal digests whatever the order, and different states different ones', () => {
    const a = kyma('a', 'Ready', [
      ['alpha', '1.0.0', 'Ready'],
      ['zulu', '1.0.0', 'Ready'],
    ]);
    const b = kyma('b', 'Ready', [['alpha', '1.0.0', 'Ready']]);
    const c = kyma('c', 'Ready', [
      ['alpha', '1.0.0', 'Ready'],
      ['zulu', '1.0.0', 'Ready'],
    ]);
    expect(endStateOf([a, b], []).digest).toBe(endStateOf([b, c], []).digest);
    expect(endStateOf([a, b], []).digest).not.toBe(
      endStateOf([a, kyma('b', 'Error', [['alpha', '1.0.0', 'Error']])], []).digest,
    );
  });
});
