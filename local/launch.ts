// `npm start` runs the local runner from one bundle, as every image runs its function (ADR 44). The bundle is made
// again when a file it was built from changed; `node local/main.ts` runs the sources as they are.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the sources are and where their bundles go. */
export interface BundlePlace { root: string; into: string }

const HERE: BundlePlace = { root: REPO_ROOT, into: join(REPO_ROOT, '.run', 'bundle') };

/** What a bundle was made from: Node's version and every input file's modification time and size. */
interface Stamp { node: string; inputs: Record<string, string> }

/** Runs `entry` (repository-relative) from its bundle, made first when missing or out of date. */
export async function launch(entry: string): Promise<void> {
  await import(pathToFileURL((await bundleOf(entry, HERE)).file).href);
}

/** The bundle of `entry` (relative to `place.root`), and whether this call had to make it. */
export async function bundleOf(entry: string, place: BundlePlace): Promise<{ file: string; made: boolean }> {
  const file = join(place.into, `${basename(entry, '.ts')}.mjs`);
  if (await isCurrent(file, place.root)) return { file, made: false };
  await make(entry, file, place);
  return { file, made: true };
}

const stampOf = (file: string): string => {
  try {
    const { mtimeMs, size } = statSync(file);
    return `${mtimeMs}:${size}`;
  } catch {
    return 'gone';
  }
};

async function isCurrent(file: string, root: string): Promise<boolean> {
  const stamp = await readFile(`${file}.stamp.json`, 'utf8').then((text) => JSON.parse(text) as Stamp, () => undefined);
  if (stamp?.node !== process.version) return false;
  return Object.entries(stamp.inputs).every(([input, was]) => stampOf(resolve(root, input)) === was);
}

async function make(entry: string, file: string, place: BundlePlace): Promise<void> {
  // Loaded only here: a start with a current bundle loads nothing of the build.
  const { build } = await import('esbuild');
  const { BUILD_OPTIONS } = await import('../tools/build/bundle.ts');
  await mkdir(place.into, { recursive: true });
  // Written aside and renamed: two starts at once each make a whole bundle, and either one is the one run.
  const made = `${file}.${process.pid}.tmp`;
  const result = await build({ ...BUILD_OPTIONS, absWorkingDir: place.root, entryPoints: [entry], outfile: made, plugins: [SOURCE_LOCATIONS] });
  const stamp: Stamp = {
    node: process.version,
    inputs: Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => [input, stampOf(resolve(place.root, input))])),
  };
  await rename(made, file);
  await writeFile(`${made}.stamp`, JSON.stringify(stamp));
  await rename(`${made}.stamp`, `${file}.stamp.json`);
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
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)).replaceAll('import.meta.dirname', JSON.stringify(dirname(path))),
      };
    });
  },
};
