import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layout's rules (docs/adr/0034-layout-shows-what-ships.md, docs/adr/0048-a-room-per-image.md). functions/<name>/
// and components/<name>/ are one deployed image each, shared/ is what images share; local/ (the embedded default) and
// tools/ (CLIs, the build) are in none. ESLint gives a file the `no-restricted-imports` of the last block that matches
// it, so each block below lists every group that applies to its files.
const SHIPPED = {
  regex: '^(\\.\\./)+(local|tools|components)/',
  message:
    'functions/, components/ and shared/ ship in images: they never import local/ (the embedded default) or tools/, and shared/ and functions/ no component. Move what both need to shared/.',
};
const ONE_COMPONENT = {
  regex: '^\\.\\./(?!\\.\\./)|(^|/)functions/',
  message:
    'A component (components/<name>/, one image) imports shared/ and its own files only: no function, no other component. Move what both need to shared/.',
};
/** The same for a file in a subfolder of its room (components/fleet/plan/): `../` is its own room. */
const ONE_COMPONENT_NESTED = { ...ONE_COMPONENT, regex: '^\\.\\./\\.\\./(?!\\.\\./)|(^|/)functions/' };
const TOOLS = {
  regex: '^(\\.\\./)+local/(?!controlplane/)',
  message:
    'tools/ (the CLIs and the build) never import the embedded default; of local/ only its control-plane library (local/controlplane/: test binaries, YAML files).',
};
const NO_TESTS = {
  regex: '^(\\.\\./)+(test|bench)/',
  message: 'Only tests and the bench import test/ and bench/.',
};
const ONE_FUNCTION = {
  regex: '^\\.\\./(?!\\.\\./)|(^|/)functions/',
  message: 'A function never imports another function: move what both need to shared/.',
};
const NO_IO = {
  regex: '^(node:|@kubernetes/|pino$)',
  message: 'Decision code is pure: no I/O libraries. Read and write in the caller, pass the results in.',
};
const NO_CLUSTER = {
  regex: '(^|/)(kube|oci)/',
  message:
    'Decision code is pure: no Kubernetes or registry clients (shared/kube, shared/oci). Pass what they read in.',
};
const restrictImports = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/**', '**/dist/**', '.cache/**', '.run/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read the environment only in shared/host/config.ts (child processes inherit it in local/controlplane/process.ts).',
        },
      ],
    },
  },
  {
    files: ['shared/host/config.ts', 'local/controlplane/process.ts', 'test/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  { files: ['shared/**'], rules: restrictImports(SHIPPED) },
  { files: ['functions/**'], rules: restrictImports(SHIPPED, ONE_FUNCTION) },
  // Decision code: the pure domain and every function's decide.ts.
  { files: ['shared/core/**'], rules: restrictImports(SHIPPED, NO_IO, NO_CLUSTER) },
  { files: ['functions/*/decide.ts'], rules: restrictImports(SHIPPED, ONE_FUNCTION, NO_IO, NO_CLUSTER) },
  { files: ['components/**'], ignores: ['**/*.test.ts'], rules: restrictImports(SHIPPED, ONE_COMPONENT, NO_TESTS) },
  {
    files: ['components/*/*/**'],
    ignores: ['**/*.test.ts'],
    rules: restrictImports(SHIPPED, ONE_COMPONENT_NESTED, NO_TESTS),
  },
  { files: ['tools/**'], ignores: ['**/*.test.ts'], rules: restrictImports(TOOLS, NO_TESTS) },
  { files: ['local/**'], ignores: ['**/*.test.ts'], rules: restrictImports(NO_TESTS) },
);
