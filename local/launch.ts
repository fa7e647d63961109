// `npm start` runs the local runner from a bundle, as every image runs its function (ADR 44). The bundle is made
// again when a file it was built from changed; `node local/main.ts` runs the sources as they are.
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { enableCompileCache } from 'node:module';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the sources are and where their bundles go. */
export interface BundlePlace {
  root: string;
  into: string;
}

const HERE: BundlePlace = { root: REPO_ROOT, into: join(REPO_ROOT, '.run', 'bundle') };

/** What npm installed, rewritten by every install. */
const INSTALLED = 'node_modules/.package-lock.json';

/** What a bundle was made from: Node's version, the modification time and size of each of our input files and of npm's
 * record of what it installed; and where it is. */
interface Stamp {
  node: string;
  dir: string;
  inputs: Record<string, string>;
}

/** Runs `entry` (repository-relative) from its bundle, made first when missing or out of date. V8's compiled code is
 * kept next to the bundle (and goes with it), so a start after the first does not compile the bundle again (ADR 47). */
export async function launch(entry: string, place: BundlePlace = HERE): Promise<void> {
  const { file } = await bundleOf(entry, place);
  enableCompileCache(join(dirname(file), 'compile-cache'));
  await import(pathToFileURL(file).href);
}

/** What `npm ci` / `npm install` run (local/prepare.ts): the bundle of `entry` made ahead of the first start, as an
 * image carries its bundle from its build. Never throws: a failure is said, and the first start makes it then. */
export async function prepareBundle(entry: string, place: BundlePlace = HERE): Promise<string> {
  const began = Date.now();
  try {
    const { made } = await bundleOf(entry, place);
    const took = ((Date.now() - began) / 1000).toFixed(1);
    return made ? `bundle of ${entry} made in ${took} s` : `bundle of ${entry} is current`;
  } catch (error) {
    const why = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return `bundle of ${entry} not made (the first start makes it): ${why}`;
  }
}

/** The bundle of `entry` (relative to `place.root`), and whether this call had to make it. The bundle is split at
 * dynamic imports: what a start does not take (the embedded control plane's tooling with KUBECONFIG set) stays
 * unread. */
export async function bundleOf(entry: string, place: BundlePlace): Promise<{ file: string; made: boolean }> {
  const name = basename(entry, '.ts');
  const stampFile = join(place.into, `${name}.stamp.json`);
  const stamp = await readFile(stampFile, 'utf8').then(
    (text) => JSON.parse(text) as Stamp,
    () => undefined,
  );
  if (stamp && isCurrent(stamp, place.root)) return { file: join(place.into, stamp.dir, `${name}.js`), made: false };
  const dir = await make(entry, name, place);
  return { file: join(place.into, dir, `${name}.js`), made: true };
}

const stampOf = (file: string): string => {
  try {
    const { mtimeMs, size } = statSync(file);
    return `${mtimeMs}:${size}`;
  } catch {
    return 'gone';
  }
};

const isCurrent = (stamp: Stamp, root: string): boolean =>
  stamp.node === process.version &&
  Object.entries(stamp.inputs).every(([input, was]) => stampOf(resolve(root, input)) === was);

/** One of our files among a bundle's inputs: not a dependency, not a module of Node's own (`builtin:node:http`). */
const isSourceFile = (input: string): boolean => !input.split('/').includes('node_modules') && !input.includes(':');

/** Makes the bundle in a folder of its own, then points the stamp at it: a start running an older bundle keeps its
 * files (older folders go after an hour), and two starts at once each run a whole one. */
async function make(entry: string, name: string, place: BundlePlace): Promise<string> {
  // Loaded only here: a start with a current bundle loads nothing of the build.
  const { build } = await import('esbuild');
  const { BUILD_OPTIONS } = await import('../tools/build/bundle.ts');
  const dir = `${name}-${Date.now()}-${process.pid}`;
  const result = await build({
    ...BUILD_OPTIONS,
    absWorkingDir: place.root,
    entryPoints: [entry],
    outdir: join(place.into, dir),
    splitting: true,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    plugins: [...BUILD_OPTIONS.plugins, SOURCE_LOCATIONS],
  });
  // Our files one by one; the dependencies by npm's record of what it installed (node_modules/.package-lock.json, which
  // every install rewrites): a start then checks some hundred files, not the 1,700 the bundle is made of.
  const ours = Object.keys(result.metafile.inputs).filter(isSourceFile);
  const stamp: Stamp = {
    node: process.version,
    dir,
    inputs: Object.fromEntries([...ours, INSTALLED].map((input) => [input, stampOf(resolve(place.root, input))])),
  };
  const stampFile = join(place.into, `${name}.stamp.json`);
  await writeFile(`${stampFile}.${process.pid}`, JSON.stringify(stamp));
  await rename(`${stampFile}.${process.pid}`, stampFile);
  for (const older of await readdir(place.into, { withFileTypes: true })) {
    if (!older.isDirectory() || !older.name.startsWith(`${name}-`) || older.name === dir) continue;
    const folder = join(place.into, older.name);
    if (Date.now() - statSync(folder).mtimeMs > 3600_000) await rm(folder, { recursive: true, force: true });
  }
  return dir;
}

/** Each of our files keeps its own location in the bundle: what it finds next to itself (manifests, CRDs, the control
 * plane's scripts) is the same as when it runs from source. */
const SOURCE_LOCATIONS: Plugin = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (path.includes('/node_modules/')) return undefined;
      const text = await readFile(path, 'utf8');
      return {
        loader: 'ts',
        contents: text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(path))),
      };
    });
  },
};
