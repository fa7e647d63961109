import { describe, expect, it } from 'vitest';
import { jsonCopy } from './json-copy.ts';

describe('jsonCopy', () => {
  const kyma = JSON.parse(
    '{"metadata":{"name":"k","labels":{"a":"b"}},"spec":{"modules":[{"name":"alpha"},{"name":"bravo"}]},' +
      '"status":{"state":"Ready","count":3,"ok":true,"none":null,"empty":[],"nested":[[1,2],[{"x":"y"}]]}}',
  ) as Record<string, unknown>;

  it('copies every value of parsed JSON, deeply', () => {
    const copy = jsonCopy(kyma);
    expect(copy).toEqual(kyma);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(kyma));
  });

  it('shares nothing with the original', () => {
    const before = JSON.stringify(kyma);
    const copy = jsonCopy(kyma) as { spec: { modules: { name: string }[] }; metadata: { labels: object } };
    copy.spec.modules.splice(0, 1, { name: 'changed' });
    (copy.spec.modules[1] as { name: string }).name = 'renamed';
    copy.spec.modules.push({ name: 'charlie' });
    (copy.metadata.labels as Record<string, string>).c = 'd';
    expect(JSON.stringify(kyma)).toBe(before);
    expect((kyma.spec as { modules: unknown[] }).modules).toHaveLength(2);
    expect((kyma.metadata as { labels: object }).labels).toEqual({ a: 'b' });
  });

  it('keeps a __proto__ key as a key, as JSON.parse does, and sets no prototype', () => {
    const hostile = JSON.parse('{"spec":{"__proto__":{"polluted":true},"name":"x"}}') as { spec: object };
    const copy = jsonCopy(hostile);
    expect(Object.getPrototypeOf(copy.spec)).toBe(Object.prototype);
    expect((copy.spec as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(copy.spec)).toEqual(['__proto__', 'name']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(hostile));
  });

  it('returns scalars as they are', () => {
    expect([jsonCopy('a'), jsonCopy(1), jsonCopy(false), jsonCopy(null)]).toEqual(['a', 1, false, null]);
  });
});
