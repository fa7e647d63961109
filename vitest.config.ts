import { defineConfig } from 'vitest/config';
import { HygieneLastSequencer } from './test/sequencer.ts';

export default defineConfig({
  test: {
    teardownTimeout: 60_000,
    sequence: { sequencer: HygieneLastSequencer },
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'functions/**/*.test.ts',
            'components/**/*.test.ts',
            'shared/**/*.test.ts',
            'local/**/*.test.ts',
            'tools/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/knative/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        // Knative Eventing's own parts (issue 24): only inside local/knative/cluster-network.sh (`./dev test:knative`).
        test: {
          name: 'knative',
          include: ['test/knative/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
