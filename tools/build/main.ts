// `npm run bundle [-- --out <dir>]`: bundles every function into functions/<name>/dist/ (so each folder is what
// `func build` needs; apply-remote's also holds dist/helm, built from its Go module like the test binaries), the
// long-lived components into dist/<name>/ (runtime watch, fleet) and the manifest library into dist/library/; with
// --out, standalone copies go to <dir>/<name>.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { locateBinaries } from '../../local/controlplane/binaries.ts';
import { BUNDLE_FILE, bundleTarget, REPO_ROOT, type BundleTarget } from './bundle.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
// apply-remote renders Helm charts with the real helm (ADR 22): the image carries the one the tests use.
const helm = (await locateBinaries()).helm;
const targets: BundleTarget[] = [
  ...functionNames().map((name) => ({
    name,
    entry: `functions/${name}/start.ts`,
    projectFiles: [`functions/${name}/func.yaml`, `functions/${name}/package.json`],
    ...(name === 'apply-remote' ? { programs: [{ name: 'helm', file: helm }] } : {}),
  })),
  longLived('runtime-watch', 'components/runtime-watch/main.ts', 'runtime watch'),
  longLived('fleet', 'components/fleet/main.ts', 'fleet component (metrics, fleet summary, why)'),
  // The manifest library (ADR 23) for operators outside this repository: one ESM file with its dependencies.
  {
    name: 'library',
    entry: 'shared/render/index.ts',
    projectFiles: [],
    packageJson: {
      name: 'kyma-lifecycle-manifest-library',
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=22.19.0' },
      description:
        'Install, consistency check and uninstall of rendered modules (bundled from kyma-lifecycle-functions shared/render)',
      exports: { '.': `./${BUNDLE_FILE}` },
    },
  },
];

/** Every function: each folder of functions/ is one func project. */
function functionNames(): string[] {
  return readdirSync(join(REPO_ROOT, 'functions'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** A long-lived component (not a function): bundled into dist/<name>/ with a package.json whose start runs it. */
function longLived(name: string, entry: string, what: string): BundleTarget {
  return {
    name,
    entry,
    projectFiles: [],
    packageJson: {
      name: `lifecycle-${name}`,
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=22.19.0' },
      description: `Kyma lifecycle manager ${what} (bundled; build the image with pack build or any Node 22 base image)`,
      scripts: { start: `exec node ${BUNDLE_FILE}` }, // exec: SIGTERM reaches node, not a shell
    },
  };
}

for (const target of targets) {
  const dir = values.out
    ? join(values.out, target.name)
    : join(REPO_ROOT, target.packageJson ? `dist/${target.name}` : `functions/${target.name}`);
  const started = performance.now();
  const { bytes, sources } = await bundleTarget(target, dir, Boolean(values.out));
  // A function image carries its own folder and shared/, nothing of local/, tools/ or another function (ADR 34).
  const foreign = target.entry.startsWith('functions/')
    ? sources.filter((file) => !file.startsWith(`functions/${target.name}/`) && !file.startsWith('shared/'))
    : [];
  if (foreign.length)
    throw new Error(
      `the bundle of ${target.name} would carry ${foreign.join(', ')}: a function image carries functions/${target.name}/ and shared/ only`,
    );
  console.log(
    `[bundle] ${target.name}: ${join(dir, BUNDLE_FILE)} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${sources.length} files of ours, ${Math.round(performance.now() - started)} ms)`,
  );
}
