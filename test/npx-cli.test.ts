// A newcomer's `npx kyma-lifecycle-functions …` in a clone (issue 21, item 9): with the machine's own npm and Node
// (often 20) first on the PATH and nothing else of ours, the CLI runs on the pinned Node 22 and npm prints no
// warnings before it (EBADENGINE about the engines field was ~10 lines of noise).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SYSTEM_NPX = ['/usr/bin/npx', '/usr/local/bin/npx'].find((path) => existsSync(path));

describe('npx in a clone', () => {
  it.skipIf(!SYSTEM_NPX)(
    'runs the fleet CLI on the pinned Node with no npm warnings first',
    async () => {
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          SYSTEM_NPX ?? 'npx',
          ['--offline', 'kyma-lifecycle-functions', '--help'],
          { cwd: ROOT, env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env['HOME'] ?? '/root' } },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(run.stderr).not.toMatch(/EBADENGINE|npm warn|npm WARN/);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('status');
      expect(run.stdout).toContain('--kubeconfig');
    },
    60_000,
  );
});
