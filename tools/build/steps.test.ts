// Every function's order of steps is code (ADR 45): a pure decision in its decide.ts, pinned by decide.test.ts, and a
// handler short enough to read at a glance.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

const MAX_HANDLER_LINES = 30;
const functions = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The lines of `async handle(…) {` … its closing brace (at the same indentation) in a function's index.ts. */
export function handlerLines(source: string): number {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => /^\s*async handle\(/.test(line));
  if (start < 0) return Number.POSITIVE_INFINITY;
  const indent = /^\s*/.exec(lines[start] ?? '')?.[0] ?? '';
  const end = lines.findIndex((line, i) => i > start && line.startsWith(`${indent}}`));
  return end < 0 ? Number.POSITIVE_INFINITY : end - start + 1;
}

describe('the steps of every function (ADR 45)', () => {
  it('counts a handler from its first line to its closing brace', () => {
    expect(handlerLines('  return {\n    async handle({ key }) {\n      a();\n      b();\n    },\n  };')).toBe(4);
    expect(handlerLines('export const x = 1;')).toBe(Number.POSITIVE_INFINITY);
  });

  it.each(functions)('%s: a pure decision with its order test, and a handler of at most 30 lines', (name) => {
    const dir = join(ROOT, 'functions', name);
    const decide = readFileSync(join(dir, 'decide.ts'), 'utf8');
    expect(decide).toMatch(/export function (next\w*Step|\w*Steps)\(/);
    expect(existsSync(join(dir, 'decide.test.ts'))).toBe(true);
    expect(readFileSync(join(dir, 'index.ts'), 'utf8')).not.toMatch(/the steps of a call, in order/);
    expect(handlerLines(readFileSync(join(dir, 'index.ts'), 'utf8'))).toBeLessThanOrEqual(MAX_HANDLER_LINES);
  });
});
