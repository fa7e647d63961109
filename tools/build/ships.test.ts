// shared/ holds only what a function image carries (ADR 34): every source file in shared/ is reached by imports from
// some function's entry point (what `npm run bundle` puts in its image), the manifest library's entry excepted — it
// ships as the package's library. A file that only local/, tools/ or tests use belongs in local/ or tools/. Lint holds
// the direct imports (eslint.config.js); this holds the whole closure.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closure as reached, ROOT, sourcesIn } from './imports.ts';

const LIBRARY_ENTRY = 'shared/render/index.ts';

/** Every repository file the entries import, directly or not (repository-relative paths; packages left out). */
const closure = (entries: readonly string[]) => new Set([...reached(entries)].filter((item) => item.endsWith('.ts')));

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
