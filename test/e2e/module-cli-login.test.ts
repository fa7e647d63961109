// The module packaging CLI against a registry with basic auth: credentials from the environment or a
// dockerconfigjson Secret file, a refused login named without its secret. The rest of the CLI: module-cli.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { locateBinaries, startRegistry, type Registry } from '../../local/controlplane/index.ts';
import { AUTH, cli, CRD, DEFAULT_CR, MANAGER, MODULE, REPOSITORY } from './module-cli-fixture.ts';

let dir: string;
let privateRegistry: Registry | undefined;

const flags = (version: string, registry: string) => [
  '--name',
  MODULE,
  '--version',
  version,
  '--manifest',
  join(dir, 'module'),
  '--default-cr',
  join(dir, 'default-cr.yaml'),
  '--registry',
  registry,
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'module-cli-login-'));
  await mkdir(join(dir, 'module'));
  await writeFile(join(dir, 'module', '10-crd.yaml'), CRD);
  await writeFile(join(dir, 'module', '20-manager.yml'), MANAGER);
  await writeFile(join(dir, 'default-cr.yaml'), DEFAULT_CR);
});

afterAll(async () => {
  await privateRegistry?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('module packaging CLI with a private registry', () => {
  it('logs in to a private registry with the environment or a dockerconfigjson Secret file, and names a refused login without its secret', async () => {
    privateRegistry = await startRegistry(inject('controlPlane').runDir, await locateBinaries(), 30_000, AUTH);
    const target = flags('1.0.0', `http://${privateRegistry.host}`);
    const wrong = await cli(target, {
      MODULE_REGISTRY_USERNAME: AUTH.username,
      MODULE_REGISTRY_PASSWORD: 'not-the-password',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      new RegExp(
        `\\nerror: registry ${privateRegistry.host} refused access: .*HTTP 401.*; check --credentials-file or MODULE_REGISTRY_USERNAME/MODULE_REGISTRY_PASSWORD\\n$`,
      ),
    );
    expect(wrong.stderr).not.toContain('not-the-password');
    const anonymous = await cli(target);
    expect(anonymous.stderr).toContain('refused access');

    const byEnv = await cli(target, {
      MODULE_REGISTRY_USERNAME: AUTH.username,
      MODULE_REGISTRY_PASSWORD: AUTH.password,
    });
    expect(byEnv.code).toBe(0);
    expect(byEnv.stderr + byEnv.stdout).not.toContain(AUTH.password);

    const dockerConfig = JSON.stringify({
      auths: {
        [`http://${privateRegistry.host}`]: {
          auth: Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64'),
        },
      },
    });
    const secretFile = join(dir, 'registry-secret.yaml');
    await writeFile(
      secretFile,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/dockerconfigjson',
        metadata: { name: 'modules' },
        data: { '.dockerconfigjson': Buffer.from(dockerConfig).toString('base64') },
      }),
    );
    const byFile = await cli([...target.map((a) => (a === '1.0.0' ? '1.1.0' : a)), '--credentials-file', secretFile]);
    expect(byFile.code).toBe(0);
    expect(byFile.stderr).toContain(`pushed ${privateRegistry.host}/${REPOSITORY}:1.1.0`);
  });
});
