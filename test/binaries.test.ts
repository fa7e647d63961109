// What each command builds (issue 22): build-binaries.sh with LIFECYCLE_BINARIES_FOR=start needs only what the
// embedded control plane runs, the tests need all nine. Checked through KUBEBUILDER_ASSETS, which names what is
// missing without building anything.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_NAMES } from '../local/controlplane/index.ts';

const SCRIPT = join(import.meta.dirname, '..', 'local', 'controlplane', 'build-binaries.sh');
let assets: string;

const build = (binariesFor: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'bash',
      [SCRIPT],
      { env: { ...process.env, KUBEBUILDER_ASSETS: assets, LIFECYCLE_BINARIES_FOR: binariesFor } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

beforeAll(async () => {
  assets = await mkdtemp(join(tmpdir(), 'assets-'));
  for (const name of BINARY_NAMES.filter((b) => b !== 'oras')) {
    await writeFile(join(assets, name), '#!/bin/sh\n');
    await chmod(join(assets, name), 0o755);
  }
});

afterAll(async () => {
  if (assets) await rm(assets, { recursive: true, force: true });
});

describe('the binaries a command needs', () => {
  it('./dev start needs no oras; the tests do, and are told it is missing', async () => {
    const start = await build('start');
    expect(start.code).toBe(0);
    expect(start.stdout.trim().split('\n').pop()).toBe(assets);

    const tests = await build('test');
    expect(tests.code).toBe(1);
    expect(tests.stderr).toContain('lacks: oras');
  });

  it('refuses an unknown purpose by name', async () => {
    const run = await build('everything');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('LIFECYCLE_BINARIES_FOR must be start, test or monitoring, not everything');
  });
});
