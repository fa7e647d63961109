import { mkdir, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { stringify } from 'yaml';
import type { Binaries } from './binaries.ts';
import { freePort } from './ports.ts';
import { answers } from './probe.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

/** A real OCI registry (CNCF distribution) on loopback, plain HTTP, filesystem storage in the run dir. */
export interface Registry {
  /** host:port, as used in OCI references (`<host>/<repository>:<tag>`). */
  readonly host: string;
  readonly url: string;
  readonly process: ManagedProcess;
  stop(): Promise<void>;
}

/** Basic-auth users of a registry (htpasswd, bcrypt): a private registry for tests of registry credentials. */
export interface RegistryAuth { username: string; password: string }

export async function startRegistry(runDir: string, binaries: Binaries, timeoutMs = 30_000, auth?: RegistryAuth): Promise<Registry> {
  const dir = join(runDir, auth ? `registry-${randomBytes(4).toString('hex')}` : 'registry');
  await mkdir(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = join(dir, 'config.yml');
  await writeFile(config, stringify({
    version: 0.1,
    log: { level: 'warn', accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: join(dir, 'storage') }, delete: { enabled: true } },
    http: { addr: host, secret: randomBytes(16).toString('hex') },
    ...(auth ? { auth: { htpasswd: { realm: 'lifecycle-test', path: await htpasswd(dir, auth) } } } : {}),
  }));
  const proc = await startProcess({
    name: 'registry', bin: binaries.registry, args: ['serve', config], runDir,
    env: { OTEL_TRACES_EXPORTER: 'none' },
  });
  const url = `http://${host}`;
  await waitUntil('registry answering /v2/', () => answers(`${url}/v2/`, {}, auth ? 401 : 200), proc, timeoutMs);
  return { host, url, process: proc, stop: () => proc.stop() };
}

async function htpasswd(dir: string, auth: RegistryAuth): Promise<string> {
  const path = join(dir, 'htpasswd');
  await writeFile(path, `${auth.username}:${await bcrypt.hash(auth.password, 10)}\n`);
  return path;
}
