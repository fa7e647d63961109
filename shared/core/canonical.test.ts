import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical.ts';

/** The definition: sort the keys of a copy at every level, drop undefined, then JSON.stringify. */
function byDefinition(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, x]) => [k, sorted(x)]));
  };
  return JSON.stringify(sorted(value));
}

describe('canonicalJson', () => {
  it('equals sorting a copy and stringifying it, for any JSON-like value (undefined included)', () => {
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.constant(undefined),
        fc.constant(null),
        fc.boolean(),
        fc.double(),
        fc.string({ unit: 'grapheme' }),
        tie('list'),
        tie('record'),
      ),
      list: fc.array(tie('any'), { maxLength: 4 }),
      record: fc.dictionary(
        fc.oneof(fc.string(), fc.nat().map(String), fc.constantFrom('4294967294', '4294967295', '01', '-1')),
        tie('any'),
        { maxKeys: 5 },
      ),
    })).any;
    fc.assert(
      fc.property(value, (v) => canonicalJson(v) === byDefinition(v)),
      { numRuns: 2000 },
    );
  });

  it('gives equal data equal text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 0, y: undefined }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"z":0}]},"b":1}',
    );
    expect(canonicalJson({ a: { c: 'x', d: [1, { z: 0 }] }, b: 1 })).toBe(
      canonicalJson({ b: 1, a: { d: [1, { z: 0 }], c: 'x' } }),
    );
    // The text is what applied hashes on the runtimes were made of: it must never change (a change re-applies a fleet).
    expect(canonicalJson({ b: '', '10': 1, '': [], '2': null, a01: true })).toBe(
      '{"2":null,"10":1,"":[],"a01":true,"b":""}',
    );
  });
});
