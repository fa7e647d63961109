// shared/ holds only what a function image carries (ADR 34): every source file in shared/ is reached by imports from
// some function's entry point (what `npm run bundle` puts in its image), the manifest library's entry excepted — it
// ships as the package's library. A file that only local/, tools/ or tests use belongs in local/ or tools/. Lint holds
// the direct imports (eslint.config.js); this holds the whole closure.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LIBRARY_ENTRY = 'shared/render/index.ts';
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

const sourcesIn = (dir: string): string[] => readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).map((file) => join(dir, file)).sort();

/** Every repository file the entries import, directly or not (repository-relative paths). */
function closure(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const next = [...entries];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file) || !existsSync(join(ROOT, file))) continue;
    seen.add(file);
    for (const [, spec = ''] of readFileSync(join(ROOT, file), 'utf8').matchAll(IMPORT)) next.push(relative(ROOT, resolve(ROOT, dirname(file), spec)));
  }
  return seen;
}

const functionEntries = readdirSync(join(ROOT, 'functions'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => `functions/${entry.name}/start.ts`);

describe('what a function image carries', () => {
  const carried = closure(functionEntries);

  it('is all of shared/ (but the library entry), and nothing of local/ or tools/', () => {
    expect(functionEntries.length).toBeGreaterThan(0);
    expect(sourcesIn('shared').filter((file) => file !== LIBRARY_ENTRY && !carried.has(file))).toEqual([]);
    expect([...carried].filter((file) => !/^(functions|shared)\//.test(file))).toEqual([]);
  });

  it('includes the manifest library, which is made of shared/ only', () => {
    expect([...closure([LIBRARY_ENTRY])].filter((file) => !file.startsWith('shared/'))).toEqual([]);
  });
});
