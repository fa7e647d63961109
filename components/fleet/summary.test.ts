import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import type { Kyma, KymaStatus, ModuleStatus } from '../../shared/core/kyma.ts';
import { kymaRows } from './rows.ts';
import { KYMA_STATES, MODULE_STATES, summarizeFleet } from './summary.ts';
import { alignedTable, countsLine, fleetText } from './table.ts';

const kyma = (
  name: string,
  state: KymaStatus['state'],
  modules: Partial<ModuleStatus>[] = [],
  deleting = false,
): Kyma =>
  aKyma({
    name,
    deleting,
    status: { ...(state ? { state } : {}), modules: modules.map((m) => ({ name: 'x', ...m })) },
  });

describe('summarizeFleet', () => {
  it('counts Kymas by state and module installs by module, version, channel and state', () => {
    const summary = summarizeFleet([
      kyma('a', 'Ready', [
        { name: 'alpha', version: '1.0.0', channel: 'regular', state: 'Ready' },
        { name: 'beta', version: '2.0.0', state: 'Ready' },
      ]),
      kyma('b', 'Error', [
        { name: 'alpha', version: '1.0.0', channel: 'regular', state: 'Error' },
        { name: 'beta', version: '2.0.0', state: 'Ready' },
      ]),
      kyma('c', 'Deleting', [], true),
      kyma('d', undefined),
    ]);
    expect(summary.kymas).toBe(4);
    expect(summary.kymaStates).toEqual({ Ready: 1, Error: 1, Deleting: 1, Unknown: 1 });
    expect(summary.deleting).toBe(1);
    expect(summary.moduleInstalls).toBe(4);
    expect(summary.moduleStates).toEqual({ Ready: 3, Error: 1 });
    expect(summary.modules).toEqual([
      { module: 'alpha', version: '1.0.0', channel: 'regular', state: 'Error', kymas: 1 },
      { module: 'alpha', version: '1.0.0', channel: 'regular', state: 'Ready', kymas: 1 },
      // no channel on the module: the Kyma's
      { module: 'beta', version: '2.0.0', channel: 'regular', state: 'Ready', kymas: 2 },
    ]);
  });

  it('an empty fleet is zeros, not an error', () => {
    expect(summarizeFleet([])).toEqual({
      kymas: 0,
      kymaStates: {},
      deleting: 0,
      moduleInstalls: 0,
      moduleStates: {},
      modules: [],
    });
  });
});

describe('fleet text', () => {
  it('counts in the state order, zero counts left out, unknown states after', () => {
    expect(countsLine({ Error: 2, Ready: 5, Unknown: 1, Warning: 0 }, KYMA_STATES)).toBe('Ready 5, Error 2, Unknown 1');
    expect(countsLine({}, KYMA_STATES)).toBe('none');
  });

  it('aligns columns, numbers to the right', () => {
    expect(
      alignedTable(
        ['NAME', 'N'],
        [
          ['a', 1],
          ['long-name', 100],
        ],
      ),
    ).toEqual(['NAME         N', 'a            1', 'long-name  100']);
  });

  it('renders the summary: headline counts and the module table', () => {
    const text = fleetText(
      summarizeFleet([
        kyma('a', 'Ready', [{ name: 'alpha', version: '1.0.0', state: 'Ready' }]),
        kyma('b', 'Deleting', [], true),
      ]),
      { kyma: KYMA_STATES, module: MODULE_STATES },
    );
    expect(text.split('\n')).toEqual([
      'Kymas: 2 — Ready 1, Deleting 1 (1 being deleted)',
      'Module installs: 1 — Ready 1',
      '',
      'MODULE  VERSION  CHANNEL  STATE  KYMAS',
      'alpha   1.0.0    regular  Ready      1',
    ]);
  });
});

describe('kymaRows (the fleet page list)', () => {
  const fleet = [
    kyma('c', 'Ready', [{ name: 'alpha', version: '1.0.0', state: 'Ready' }]),
    kyma('a', 'Error', [
      { name: 'alpha', version: '1.0.0', state: 'Error' },
      { name: 'beta', version: '2.0.0', state: 'Ready' },
    ]),
    kyma('b', 'Ready', [{ name: 'beta', version: '2.0.0', state: 'Ready' }]),
  ];
  it('filters by Kyma state, by module (and its state), by name; ordered by name; capped', () => {
    expect(kymaRows(fleet, {}).rows.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    expect(kymaRows(fleet, { state: 'Ready' }).rows.map((r) => r.name)).toEqual(['b', 'c']);
    expect(kymaRows(fleet, { module: 'alpha' }).rows.map((r) => r.name)).toEqual(['a', 'c']);
    expect(kymaRows(fleet, { module: 'alpha', state: 'Error' }).rows.map((r) => r.name)).toEqual(['a']);
    expect(kymaRows(fleet, { name: 'b' }).rows.map((r) => r.name)).toEqual(['b']);
    expect(kymaRows(fleet, { limit: 1 })).toMatchObject({
      total: 3,
      rows: [{ name: 'a', state: 'Error', deleting: false }],
    });
    expect(kymaRows(fleet, { name: 'a' }).rows[0]?.modules).toEqual([
      { name: 'alpha', state: 'Error', version: '1.0.0', channel: 'regular' },
      { name: 'beta', state: 'Ready', version: '2.0.0', channel: 'regular' },
    ]);
  });
});
