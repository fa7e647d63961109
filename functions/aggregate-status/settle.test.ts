import { describe, expect, it } from 'vitest';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE } from '../../shared/host/events.ts';
import { courseOf, ModulesOnTheirWay, SETTLE_MS, settleMsOf } from './settle.ts';

const manifest = (state?: string, deleting = false) => ({
  metadata: { name: 'm', ...(deleting ? { deletionTimestamp: '2026-12-03T00:00:00Z' } : {}) },
  ...(state ? { status: { state } } : {}),
});
const update = (state?: string) => ({ type: APISERVER_UPDATE, data: manifest(state) });

describe('courseOf', () => {
  it('tells a module on its way, settled, in trouble and gone apart', () => {
    expect(courseOf({ type: APISERVER_ADD, data: manifest() })).toBe('onItsWay');
    expect(courseOf(update('Processing'))).toBe('onItsWay');
    expect(courseOf(update('Ready'))).toBe('settled');
    expect(courseOf(update('Error'))).toBe('trouble');
    expect(courseOf(update('Warning'))).toBe('trouble');
    expect(courseOf({ type: APISERVER_UPDATE, data: manifest('Ready', true) })).toBe('gone');
    expect(courseOf({ type: APISERVER_DELETE, data: manifest('Ready') })).toBe('gone');
  });
});

describe('settleMsOf', () => {
  it('waits while a module is on its way, not for the last one settling, never for trouble', () => {
    expect(settleMsOf('onItsWay', 0)).toBe(SETTLE_MS);
    expect(settleMsOf('settled', 2)).toBe(SETTLE_MS);
    expect(settleMsOf('settled', 0)).toBe(0);
    expect(settleMsOf('trouble', 3)).toBe(0);
    expect(settleMsOf('gone', 3)).toBe(0);
  });
});

describe('ModulesOnTheirWay', () => {
  it("settles a Kyma's install until its last module is Ready, which is reported at once", () => {
    const way = new ModulesOnTheirWay();
    const modules = ['a', 'b', 'c'];
    for (const m of modules) expect(way.settleMs('ns/k', m, { type: APISERVER_ADD, data: manifest() })).toBe(SETTLE_MS);
    expect(way.settleMs('ns/k', 'a', update('Ready'))).toBe(SETTLE_MS);
    expect(way.settleMs('ns/k', 'b', update('Ready'))).toBe(SETTLE_MS);
    expect(way.settleMs('ns/k', 'c', update('Ready'))).toBe(0);
    expect(way.size).toBe(0);
  });

  it("reports an edit's one new module at once once it is Ready; other Kymas do not hold it", () => {
    const way = new ModulesOnTheirWay();
    way.settleMs('ns/other', 'x', { type: APISERVER_ADD, data: manifest() });
    expect(way.settleMs('ns/k', 'zulu', { type: APISERVER_ADD, data: manifest() })).toBe(SETTLE_MS);
    expect(way.settleMs('ns/k', 'zulu', update('Ready'))).toBe(0);
    expect(way.size).toBe(1);
  });

  it('keeps waiting for a module whose settling it did not see, and forgets a deleted one', () => {
    const way = new ModulesOnTheirWay();
    way.settleMs('ns/k', 'a', { type: APISERVER_ADD, data: manifest() });
    expect(way.settleMs('ns/k', 'b', update('Ready'))).toBe(SETTLE_MS);
    expect(way.settleMs('ns/k', 'a', { type: APISERVER_DELETE, data: manifest() })).toBe(0);
    expect(way.settleMs('ns/k', 'b', update('Ready'))).toBe(0);
    expect(way.size).toBe(0);
  });

  it('a module in trouble is reported at once and no longer counted on its way', () => {
    const way = new ModulesOnTheirWay();
    way.settleMs('ns/k', 'a', update('Processing'));
    expect(way.settleMs('ns/k', 'a', update('Error'))).toBe(0);
    expect(way.settleMs('ns/k', 'b', update('Ready'))).toBe(0);
  });
});
