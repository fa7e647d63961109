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
  /**
   * Starts the registry again after `stop()` (or `process.kill()`): the same port, storage and configuration, so what
   * was pushed before is there again; resolves once /v2/ answers.
   */
  start(): Promise<void>;
}

/** Basic-auth users of a registry (htpasswd, bcrypt): a private registry for tests of registry credentials. */
export interface RegistryAuth {
  username: string;
  password: string;
}

/**
 * Starts a registry in `<runDir>/<name>` (its storage, config and htpasswd), running as process `<name>`. The name
 * defaults to `registry` — the control plane's registry — and to `registry-<random>` for one with basic auth; a test
 * that starts a registry of its own passes a name of its own.
 */
export async function startRegistry(
  runDir: string,
  binaries: Binaries,
  timeoutMs = 30_000,
  auth?: RegistryAuth,
  name?: string,
): Promise<Registry> {
  const dirName = name ?? (auth ? `registry-${randomBytes(4).toString('hex')}` : 'registry');
  const dir = join(runDir, dirName);
  await mkdir(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const config = join(dir, 'config.yml');
  await writeFile(
    config,
    stringify({
      version: 0.1,
      log: { level: 'warn', accesslog: { disabled: true } },
      storage: { filesystem: { rootdirectory: join(dir, 'storage') }, delete: { enabled: true } },
      http: { addr: host, secret: randomBytes(16).toString('hex') },
      ...(auth ? { auth: { htpasswd: { realm: 'lifecycle-test', path: await htpasswd(dir, auth) } } } : {}),
    }),
  );
  const proc = await startProcess({
    name: dirName,
    bin: binaries.registry,
    args: ['serve', config],
    runDir,
    env: { OTEL_TRACES_EXPORTER: 'none' },
  });
  const url = `http://${host}`;
  const answering = () =>
    waitUntil(`${dirName} answering /v2/`, () => answers(`${url}/v2/`, {}, auth ? 401 : 200), proc, timeoutMs);
  await answering();
  return {
    host,
    url,
    process: proc,
    stop: () => proc.stop(),
    start: async () => {
      await proc.respawn();
      await answering();
    },
  };
}

async function htpasswd(dir: string, auth: RegistryAuth): Promise<string> {
  const path = join(dir, 'htpasswd');
  await writeFile(path, `${auth.username}:${await bcrypt.hash(auth.password, 10)}\n`);
  return path;
}
