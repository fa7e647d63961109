import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleOf, prepareBundle, type BundlePlace } from './launch.ts';

let place: BundlePlace;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'launch-'));
  place = { root, into: join(root, '.run', 'bundle') };
  await mkdir(join(root, 'lib'));
  await writeFile(
    join(root, 'main.ts'),
    "import { where } from './lib/where.ts';\nexport const found: string = where();\nexport const later = () => import('./lib/later.ts');\n",
  );
  await writeFile(join(root, 'lib', 'later.ts'), "export const mark = 'only-when-imported';\n");
  await writeFile(
    join(root, 'lib', 'where.ts'),
    "export const where = (): string => new URL('./data.txt', import.meta.url).pathname;\n",
  );
});
afterEach(async () => rm(place.root, { recursive: true, force: true }));

describe('launch: npm start runs a bundle of the sources (ADR 44)', () => {
  it('makes the bundle once, reuses it while no input changed, and makes it again when one did', async () => {
    expect((await bundleOf('main.ts', place)).made).toBe(true);
    expect((await bundleOf('main.ts', place)).made).toBe(false);
    const lib = join(place.root, 'lib', 'where.ts');
    await writeFile(lib, "export const where = (): string => 'changed';\n");
    await utimes(lib, new Date(), new Date(Date.now() + 5000)); // a different time even on a coarse clock
    const again = await bundleOf('main.ts', place);
    expect(again.made).toBe(true);
    expect(await readFile(again.file, 'utf8')).toContain('changed');
  });

  it("keeps each source file's own location: a path it resolves next to itself is the same as from source", async () => {
    const { file } = await bundleOf('main.ts', place);
    const bundled = (await import(pathToFileURL(file).href)) as { found: string };
    expect(bundled.found).toBe(join(place.root, 'lib', 'data.txt'));
    expect(file.startsWith(place.into)).toBe(true);
  });

  it('leaves what is imported dynamically out of the entry file, in a chunk read only when imported', async () => {
    const { file } = await bundleOf('main.ts', place);
    expect(await readFile(file, 'utf8')).not.toContain('only-when-imported');
    const bundled = (await import(pathToFileURL(file).href)) as { later: () => Promise<{ mark: string }> };
    expect((await bundled.later()).mark).toBe('only-when-imported');
  });

  it("takes Node's own modules with require(), not import: no module view of node:http, which loads undici (ADR 47)", async () => {
    await writeFile(
      join(place.root, 'serve.ts'),
      "import { STATUS_CODES } from 'node:http';\nimport * as path from 'path';\nexport const text = `${STATUS_CODES[404]} ${path.sep}`;\n",
    );
    const { file } = await bundleOf('serve.ts', place);
    const bundle = await readFile(file, 'utf8');
    expect(bundle).not.toMatch(/from\s*["'](node:)?(http|path)["']/);
    expect(((await import(pathToFileURL(file).href)) as { text: string }).text).toBe('Not Found /');
    const stamp = JSON.parse(await readFile(join(place.into, 'serve.stamp.json'), 'utf8')) as {
      inputs: Record<string, string>;
    };
    expect(Object.keys(stamp.inputs).sort()).toEqual(['node_modules/.package-lock.json', 'serve.ts']);
  });

  it("keeps V8's compiled code in the bundle's folder, for the next start (ADR 47)", async () => {
    const launcher = `const { launch } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, 'launch.ts')).href)}); await launch('main.ts', ${JSON.stringify(place)});`;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', launcher]);
    const { file } = await bundleOf('main.ts', place);
    expect((await readdir(join(dirname(file), 'compile-cache'), { recursive: true })).length).toBeGreaterThan(0);
  });

  it('makes it again for another Node version', async () => {
    await bundleOf('main.ts', place);
    const stampFile = join(place.into, 'main.stamp.json');
    const stamp = JSON.parse(await readFile(stampFile, 'utf8')) as { node: string };
    await writeFile(stampFile, JSON.stringify({ ...stamp, node: 'v0.0.0' }));
    expect((await bundleOf('main.ts', place)).made).toBe(true);
  });

  it('is made at install (npm ci runs prepare), then current; a failure there is said, not thrown', async () => {
    const scripts = (
      JSON.parse(await readFile(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.prepare).toBe('node local/prepare.ts');
    expect(await prepareBundle('main.ts', place)).toMatch(/^bundle of main\.ts made in [\d.]+ s$/);
    expect(await prepareBundle('main.ts', place)).toBe('bundle of main.ts is current');
    expect((await bundleOf('main.ts', place)).made).toBe(false);
    expect(await prepareBundle('missing.ts', place)).toMatch(
      /^bundle of missing\.ts not made \(the first start makes it\): ./,
    );
  });
});
