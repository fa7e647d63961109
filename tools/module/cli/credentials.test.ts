import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { dockerConfigJson, registryCredentials } from './credentials.ts';

const HOST = 'registry.example.com:5000';
const AUTH = { username: 'robot', password: 's3cret-pa55' };
const CONFIG = JSON.stringify({
  auths: { [`https://${HOST}`]: { auth: Buffer.from(`${AUTH.username}:${AUTH.password}`).toString('base64') } },
});
const none = { username: undefined, password: undefined };

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function tempFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'module-cli-auth-'));
  dirs.push(dir);
  const path = join(dir, 'auth');
  await writeFile(path, text);
  return path;
}

describe('dockerConfigJson', () => {
  it('is the text itself for a docker config, the .dockerconfigjson of a Secret otherwise', () => {
    expect(dockerConfigJson(CONFIG, 'f')).toBe(CONFIG);
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': Buffer.from(CONFIG).toString('base64') },
    };
    expect(dockerConfigJson(stringify(secret), 'f')).toBe(CONFIG);
    expect(dockerConfigJson(stringify({ kind: 'Secret', stringData: { '.dockerconfigjson': CONFIG } }), 'f')).toBe(
      CONFIG,
    );
  });

  it('refuses a Secret without the key', () => {
    expect(() => dockerConfigJson(stringify({ kind: 'Secret', data: { token: 'eA==' } }), 'auth.yaml')).toThrow(
      '--credentials-file "auth.yaml": the Secret has no .dockerconfigjson key',
    );
  });
});

describe('registryCredentials', () => {
  it('reads the file first, then the environment pair, else none', async () => {
    const file = await tempFile(CONFIG);
    expect(await registryCredentials(file, { username: 'env', password: 'env' }, HOST)).toEqual(AUTH);
    expect(await registryCredentials(undefined, { username: 'env', password: 'pw' }, HOST)).toEqual({
      username: 'env',
      password: 'pw',
    });
    expect(await registryCredentials(undefined, none, HOST)).toBeUndefined();
  });

  it.each([
    [
      'half a login from the environment',
      undefined,
      { username: 'robot', password: undefined },
      'MODULE_REGISTRY_USERNAME and MODULE_REGISTRY_PASSWORD must be set together',
    ],
    ['a file for another registry', CONFIG, none, 'has no entry for registry other.example.com'],
    ['a file that is not JSON', 'auths: [', none, 'neither JSON nor YAML'],
  ])('refuses %s without printing a secret', async (_, text, login, message) => {
    const file = text === undefined ? undefined : await tempFile(text);
    const host = text === CONFIG ? 'other.example.com' : HOST;
    const error = await registryCredentials(file, login, host).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'InputError', message: expect.stringContaining(message) });
    expect(JSON.stringify(error) + String(error)).not.toContain(AUTH.password);
  });
});
