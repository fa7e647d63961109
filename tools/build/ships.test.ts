// Every deployed image has a room of its own (ADR 34, 48): what `npm run bundle` puts in an image is its room
// (functions/<name>/ or components/<name>/) and shared/, nothing of local/ (the embedded default) or tools/. shared/
// holds only what some image carries, the manifest library's entry excepted: it ships as the package's library. Lint
// holds the direct imports (eslint.config.js); this holds the whole closure.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closure as reached, ROOT, sourcesIn } from './imports.ts';

const LIBRARY_ENTRY = 'shared/render/index.ts';

/** Every repository file the entries import, directly or not (repository-relative paths; packages left out). */
const closure = (entries: readonly string[]) => new Set([...reached(entries)].filter((item) => item.endsWith('.ts')));

const folders = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

/** Each image by its room and entry: a function's `start.ts`, a component's `main.ts`. */
const IMAGES = [
  ...folders('functions').map((name) => ({ room: `functions/${name}/`, entry: `functions/${name}/start.ts` })),
  ...folders('components').map((name) => ({ room: `components/${name}/`, entry: `components/${name}/main.ts` })),
];

/** The entries the build bundles for the long-lived components (tools/build/main.ts). */
const builtComponents = [
  ...readFileSync(join(ROOT, 'tools/build/main.ts'), 'utf8').matchAll(/longLived\('[^']+', '([^']+)'/g),
].map((m) => m[1]);

describe('what an image carries', () => {
  it.each(IMAGES)('$entry: its room and shared/, nothing else', ({ room, entry }) => {
    expect([...closure([entry])].filter((file) => !file.startsWith(room) && !file.startsWith('shared/'))).toEqual([]);
  });

  it('every image the build makes is one of these rooms', () => {
    expect(IMAGES.filter(({ room }) => room.startsWith('components/')).length).toBeGreaterThan(0);
    expect(builtComponents.length).toBeGreaterThan(1);
    expect(builtComponents.filter((entry) => !IMAGES.some((image) => image.entry === entry))).toEqual([]);
  });

  it('shared/ is only what some image carries (the library entry excepted)', () => {
    const carried = closure(IMAGES.map((image) => image.entry));
    expect(sourcesIn('shared').filter((file) => file !== LIBRARY_ENTRY && !carried.has(file))).toEqual([]);
  });

  it('includes the manifest library, which is made of shared/ only', () => {
    expect([...closure([LIBRARY_ENTRY])].filter((file) => !file.startsWith('shared/'))).toEqual([]);
  });
});
