// The repository's import graph as the source text states it, for the layout's tests (ADR 34): which files and
// packages each source file imports, statically or with `import()`; `import type` too unless `values` is asked for
// (it leaves nothing in the running code). Reads files, decides nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMPORT =
  /(?:^|\n)[ \t]*(?:import|export)\b([ \t]+type\b)?(?:[^;'"]*?\bfrom)?\s*['"]([^'"\n]+)['"]|\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** The source files (tests excluded) under `dir`, repository-relative, sorted. */
export const sourcesIn = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.includes('node_modules'))
    .map((file) => join(dir, file))
    .sort();

/** What `file` imports: repository files as repository-relative paths, packages (and `node:` modules) as written. */
export function importsOf(file: string, only: 'all' | 'values' = 'all'): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .filter(([, typeOnly]) => only === 'all' || !typeOnly)
    .map(([, , fromStatement, fromCall]) => fromStatement ?? fromCall ?? '')
    .map((spec) => (spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec));
}

/** Every repository file and package the entries reach, directly or not. */
export function closure(entries: readonly string[], only: 'all' | 'values' = 'all'): Set<string> {
  const seen = new Set<string>();
  const next = [...entries];
  for (let item = next.pop(); item !== undefined; item = next.pop()) {
    if (seen.has(item)) continue;
    seen.add(item);
    if (item.endsWith('.ts') && existsSync(join(ROOT, item))) next.push(...importsOf(item, only));
  }
  return seen;
}
