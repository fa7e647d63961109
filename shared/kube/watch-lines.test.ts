import { describe, expect, it } from 'vitest';
import { WatchLines } from './watch-lines.ts';

describe("a WATCH's lines", () => {
  it('joins lines cut across chunks and drops blank ones', () => {
    const lines = new WatchLines();
    expect(lines.take('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(lines.take(':2}\n\n  \n{"c":3}')).toEqual(['{"b":2}']);
    expect(lines.take('\n')).toEqual(['{"c":3}']);
  });

  it('takes a line of the bound, and refuses one unfinished past it', () => {
    const lines = new WatchLines(8);
    expect(lines.take('12345678')).toEqual([]);
    expect(lines.take('\n')).toEqual(['12345678']);
    expect(new WatchLines(8).take('123456789')).toBeUndefined();
  });
});
