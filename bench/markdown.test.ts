import { describe, expect, it } from 'vitest';
import { eventTypesText } from './markdown.ts';

describe('eventTypesText', () => {
  it('lists the types most received first, ties by name', () => {
    expect(eventTypesText({ 'x.b': 2, 'x.a': 2, 'x.c': 9 })).toBe('; received by type: x.c 9, x.a 2, x.b 2');
  });

  it('says nothing for a result written before types were counted', () => {
    expect(eventTypesText(undefined)).toBe('');
    expect(eventTypesText({})).toBe('');
  });
});
