import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '**/dist/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      'no-restricted-properties': ['error', {
        object: 'process', property: 'env',
        message: 'Read the environment only in shared/host/config.ts (child processes inherit it in local/controlplane/process.ts).',
      }],
    },
  },
  {
    files: ['shared/host/config.ts', 'local/controlplane/process.ts', 'test/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['shared/core/**', 'functions/*/decide.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: ['node:*', '@kubernetes/*', 'fastify', 'pino', '../k8s/*', '../oci/*'],
      }],
    },
  },
);
