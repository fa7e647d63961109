import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clusters } from './clusters.ts';

const run = promisify(execFile);
const { registryHost, binDir } = clusters();
const oras = (cwd: string, ...args: string[]) => run(join(binDir, 'oras'), args, { cwd });

describe('OCI registry on loopback', () => {
  it('returns an artifact pushed with the oras CLI byte-identical, digests checked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oras-'));
    const content = Buffer.concat([Buffer.from('apiVersion: v1\nkind: ConfigMap\n'), randomBytes(64 * 1024)]);
    await writeFile(join(dir, 'raw-manifest.yaml'), content);
    const ref = `${registryHost}/component-descriptors/kyma-project.io/module/sample:1.0.0`;
    await oras(
      dir,
      'push',
      '--plain-http',
      '--artifact-type',
      'application/vnd.test.module',
      ref,
      'raw-manifest.yaml:application/x-yaml',
    );

    const digest = `sha256:${createHash('sha256').update(content).digest('hex')}`;
    const manifest = (await (
      await fetch(`http://${registryHost}/v2/component-descriptors/kyma-project.io/module/sample/manifests/1.0.0`, {
        headers: { accept: 'application/vnd.oci.image.manifest.v1+json' },
      })
    ).json()) as { layers: { digest: string; size: number }[] };
    expect(manifest.layers).toEqual([expect.objectContaining({ digest, size: content.length })]);

    const blob = Buffer.from(
      await (
        await fetch(`http://${registryHost}/v2/component-descriptors/kyma-project.io/module/sample/blobs/${digest}`)
      ).arrayBuffer(),
    );
    expect(`sha256:${createHash('sha256').update(blob).digest('hex')}`).toBe(digest);
    expect(blob.equals(content)).toBe(true);

    const out = await mkdtemp(join(tmpdir(), 'oras-pull-'));
    await oras(out, 'pull', '--plain-http', ref);
    expect((await readFile(join(out, 'raw-manifest.yaml'))).equals(content)).toBe(true);
  });
});
