import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from './canonical.ts';

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

/** JSON-like values (undefined included) with keys from `keys`, up to `maxKeys` per object. */
const jsonLike = (keys: fc.Arbitrary<string>, maxKeys: number) =>
  fc.letrec((tie) => ({
    any: fc.oneof(
      { depthSize: 'small' },
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.constantFrom(0, 1, '1', 'null', NaN),
      fc.string({ unit: 'grapheme' }),
      tie('list'),
      tie('record'),
    ),
    list: fc.array(tie('any'), { maxLength: 4 }),
    record: fc.dictionary(keys, tie('any'), { maxKeys }),
  })).any;
/** Few keys, so that generated pairs are often equal. */
const fewKeys = () => jsonLike(fc.constantFrom('a', 'b', '1', '__proto__'), 3);

describe('sameJson (ADR 89)', () => {
  it('agrees with comparing canonicalJson texts, for any pair and for a value against its reordered copy', () => {
    const reordered = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(reordered);
      if (v === null || typeof v !== 'object') return v;
      return Object.fromEntries(
        Object.entries(v)
          .reverse()
          .map(([k, x]) => [k, reordered(x)]),
      );
    };
    fc.assert(
      fc.property(fewKeys(), fewKeys(), (a, b) => sameJson(a, b) === (canonicalJson(a) === canonicalJson(b))),
      { numRuns: 4000 },
    );
    fc.assert(
      fc.property(fewKeys(), (a) => sameJson(a, reordered(a))),
      { numRuns: 2000 },
    );
  });

  it('tells the cases the texts tell apart', () => {
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson(undefined, null)).toBe(false);
    expect(sameJson({ k: null }, { k: undefined, j: 1 })).toBe(false);
    expect(sameJson({ b: [1, { c: 'x' }], a: 2 }, { a: 2, b: [1, { c: 'x' }] })).toBe(true);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('equals sorting a copy and stringifying it, for any JSON-like value (undefined included)', () => {
    const value = jsonLike(
      fc.oneof(fc.string(), fc.nat().map(String), fc.constantFrom('4294967294', '4294967295', '01', '-1')),
      5,
    );
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
