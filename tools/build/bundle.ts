// The bundle step: each function folder (and the runtime watch) becomes self-contained for `func build` / `pack
// build` — one ESM file with every dependency inlined, so the image needs only Node ≥ 22 and this folder.
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { isBuiltin } from 'node:module';
import { chmod, copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What gets bundled: a name, the entry file (repo-relative), and the files a standalone copy takes along. */
export interface BundleTarget {
  name: string;
  entry: string;
  /** Files copied next to the bundle when writing outside the repository (func.yaml, package.json). */
  projectFiles: string[];
  /** package.json written when the target has none of its own. */
  packageJson?: object;
  /** Programs the function runs, copied into dist/ next to the bundle (apply-remote: helm, ADR 22). */
  programs?: { name: string; file: string }[];
}

/** The bundle's entry point as `npm start` runs it. */
export const BUNDLE_FILE = 'dist/index.mjs';

// Dependencies written in CommonJS call require() at run time; an ESM bundle has none unless it is created here.
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** Node's own modules are taken with require(), also where a source imports them: an `import` makes Node build an ES
 * module view of each, reading every export, and reading node:http's loads undici (a quarter of a start's loading,
 * ADR 47). */
const BUILTIN = 'builtin';
const BUILTINS_BY_REQUIRE: Plugin = {
  name: 'builtins-by-require',
  setup(build) {
    build.onResolve({ filter: /^[a-z:_/]+$/ }, ({ path, kind }) =>
      kind === 'import-statement' && isBuiltin(path) ? { path, namespace: BUILTIN } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: BUILTIN }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

/** How every bundle is built: the images' and the local runner's (local/launch.ts). */
export const BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  banner: { js: REQUIRE_SHIM },
  external: ['bufferutil', 'utf-8-validate'],
  legalComments: 'none',
  metafile: true,
  logLevel: 'silent',
  plugins: [BUILTINS_BY_REQUIRE],
} as const satisfies BuildOptions;

/** Bundles `target` into `dir` (dir/dist/index.mjs) and, when `standalone`, copies its project files there too.
 * `sources`: the repository files (not dependencies) the bundle is made of, repository-relative. */
export async function bundleTarget(
  target: BundleTarget,
  dir: string,
  standalone: boolean,
): Promise<{ bytes: number; sources: string[] }> {
  const outfile = join(dir, BUNDLE_FILE);
  const result = await build({ ...BUILD_OPTIONS, entryPoints: [join(REPO_ROOT, target.entry)], outfile });
  if (standalone) {
    await mkdir(dir, { recursive: true });
    for (const file of target.projectFiles)
      await copyFile(join(REPO_ROOT, file), join(dir, file.split('/').pop() ?? file));
  }
  for (const program of target.programs ?? []) {
    await copyFile(program.file, join(dir, 'dist', program.name));
    await chmod(join(dir, 'dist', program.name), 0o755);
  }
  if (target.packageJson)
    await writeFile(join(dir, 'package.json'), `${JSON.stringify(target.packageJson, null, 2)}\n`);
  // Inputs in a namespace (`builtin:node:http`) are Node's own modules, not files.
  const files = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith(`${BUILTIN}:`));
  const sources = files
    .map((input) => relative(REPO_ROOT, resolve(input)))
    .filter((file) => !file.split(sep).includes('node_modules'));
  return { bytes: result.metafile.outputs[Object.keys(result.metafile.outputs)[0] ?? '']?.bytes ?? 0, sources };
}
