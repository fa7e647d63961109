import { describe, expect, it } from 'vitest';
import { freezeDeep, identityOf, isFrozenDeep, onceForFrozen } from './frozen.ts';

describe('deep-frozen objects and what is derived from them (ADR 89)', () => {
  it('freezes every level and marks only the objects freezeDeep froze', () => {
    const value = freezeDeep({ spec: { channels: [{ version: '1.0.0' }] } });
    expect(Object.isFrozen(value.spec.channels[0])).toBe(true);
    expect(() => {
      (value.spec.channels as { version: string }[]).push({ version: '2.0.0' });
    }).toThrow(TypeError);
    expect(isFrozenDeep(value)).toBe(true);
    expect(isFrozenDeep(Object.freeze({ spec: {} }))).toBe(false);
    expect(isFrozenDeep('text')).toBe(false);
  });

  it('derives once per frozen object, every time for anything else', () => {
    let calls = 0;
    const size = onceForFrozen((value: object) => {
      calls++;
      return JSON.stringify(value).length;
    });
    const frozen = freezeDeep({ a: 1 });
    expect([size(frozen), size(frozen)]).toEqual([7, 7]);
    expect(calls).toBe(1);
    const open = { a: 1 };
    size(open);
    open.a = 22;
    expect(size(open)).toBe(8);
    expect(calls).toBe(3);
  });

  it('names objects, not contents', () => {
    const one = { a: 1 };
    expect(identityOf(one)).toBe(identityOf(one));
    expect(identityOf({ a: 1 })).not.toBe(identityOf(one));
  });
});
