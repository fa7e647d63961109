// Each functions/<name>/ is a Knative func project: func.yaml valid against the schema the func CLI publishes (taken
// from its Go module, with its current specVersion), and after `npm run bundle` a self-contained folder: a copy
// outside the repository (no node_modules anywhere above it) serves CloudEvents on $PORT with `npm start`.
import AjvDraft04 from 'ajv-draft-04';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { freePort } from '../../local/controlplane/ports.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { installCrds } from '../../local/controlplane/crds.ts';
import { REPO_ROOT } from '../../tools/build/bundle.ts';
import { FUNCTIONS } from '../../local/runner/functions.ts';
import { MANIFESTS_DIR } from '../../local/runner/local-runner.ts';
import { moduleDir } from './knative-crds.ts';
import { render, type Doc } from './validate.ts';

/** The func CLI of Knative 1.23 (knative-v1.23.1). */
const FUNC_MODULE = { path: 'knative.dev/func', version: 'v0.50.1' };
const NAMES = Object.keys(FUNCTIONS);

let out: string;
let kubeconfigPath: string;
let docs: Doc[];
const children: ChildProcess[] = [];
const sunk: unknown[] = [];
const sink = createServer((req, res) => {
  sunk.push(req.headers['ce-type']);
  req.resume();
  res.writeHead(202).end();
});

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'lifecycle-bundle-'));
  kubeconfigPath = join(out, 'kcp.kubeconfig');
  await writeFile(kubeconfigPath, inject('controlPlane').kcp, { mode: 0o600 });
  const kcp = loadKubeConfig(inject('controlPlane').kcp);
  await installCrds(kcp);
  await (
    await KubeClient.from(kcp)
  )
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } })
    .catch(() => undefined);
  docs = await render(MANIFESTS_DIR);
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  await run(process.execPath, [join(REPO_ROOT, 'tools/build/main.ts'), '--out', out], REPO_ROOT);
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await new Promise((resolve) => sink.close(resolve));
});

function run(bin: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

describe('func projects', () => {
  it('each func.yaml is valid for the func CLI (its published schema, its current specVersion) and matches manifests/', async () => {
    const funcDir = await moduleDir(FUNC_MODULE.path, FUNC_MODULE.version);
    const validate = new AjvDraft04.default({ strict: false, allErrors: true }).compile(
      JSON.parse(await readFile(join(funcDir, 'schema/func_yaml-schema.json'), 'utf8')) as object,
    );
    const migrations = await readFile(join(funcDir, 'pkg/functions/function_migrations.go'), 'utf8');
    const current = [...migrations.matchAll(/\{"(\d+\.\d+\.\d+)", migrate/g)].map((m) => m[1]).pop();
    expect(current).toMatch(/^\d+\.\d+\.\d+$/);
    for (const name of NAMES) {
      const func = parse(await readFile(join(REPO_ROOT, 'functions', name, 'func.yaml'), 'utf8')) as Record<
        string,
        unknown
      > & { deploy: { namespace: string; serviceAccountName: string; healthEndpoints: Record<string, string> } };
      expect(validate(func) ? [] : validate.errors, `functions/${name}/func.yaml`).toEqual([]);
      expect(func).toMatchObject({ specVersion: current, name, runtime: 'typescript', invoke: 'cloudevent' });
      const service = docs.find((d) => d.kind === 'Service' && d.metadata.name === name);
      const spec = (
        service?.spec?.template as {
          spec: {
            serviceAccountName: string;
            containers: {
              readinessProbe: { httpGet: { path: string } };
              livenessProbe: { httpGet: { path: string } };
            }[];
          };
        }
      ).spec;
      expect(func.deploy.namespace).toBe(service?.metadata.namespace);
      expect(func.deploy.serviceAccountName).toBe(spec.serviceAccountName);
      expect(func.deploy.healthEndpoints).toEqual({
        readiness: spec.containers[0]?.readinessProbe.httpGet.path,
        liveness: spec.containers[0]?.livenessProbe.httpGet.path,
      });
    }
  });

  it.each(NAMES)(
    '%s: the bundled copy holds only func.yaml, package.json and dist/, and npm start serves CloudEvents on $PORT',
    async (name) => {
      const dir = join(out, name);
      expect((await readdir(dir)).sort()).toEqual(['dist', 'func.yaml', 'package.json']);
      // apply-remote carries the helm it renders charts with (ADR 22), and finds it there by itself
      if (name === 'apply-remote')
        expect(await run(join(dir, 'dist', 'helm'), ['version', '--short'], dir)).toMatch(/^v4\./);
      const port = await freePort();
      const child = start(dir, {
        PORT: String(port),
        K_SINK: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
      });
      await ready(port, child);
      const answer = await post(port, eventFor(name));
      expect(answer.status, `${name} answered ${answer.status}: ${answer.body}`).toBe(204);
      child.kill('SIGTERM');
      expect([0, 'SIGTERM']).toContain(await ended(child));
      expect(
        await fetch(`http://127.0.0.1:${port}/health/liveness`).then(
          () => 'open',
          () => 'closed',
        ),
        'the port is closed after SIGTERM',
      ).toBe('closed');
    },
  );

  it('library: the bundled copy works outside the repository (install and uninstall a module on a real cluster)', async () => {
    const library = (await import(
      join(out, 'library', 'dist', 'index.mjs')
    )) as typeof import('../../shared/render/index.ts');
    const cluster = await library.connectCluster(inject('controlPlane').kcp);
    const module = {
      name: 'bundled',
      manifest:
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bundled-library, namespace: default}\ndata: {a: b}\n',
    };
    const installed = await library.installModule(cluster, module);
    expect(installed).toMatchObject({
      state: 'Ready',
      synced: [{ kind: 'ConfigMap', name: 'bundled-library', namespace: 'default' }],
    });
    expect(await library.checkModule(cluster, module)).toMatchObject({ consistent: true });
    expect(await library.uninstallModule(cluster, installed.synced)).toEqual({
      done: false,
      remaining: installed.synced,
    });
    expect(await library.uninstallModule(cluster, installed.synced)).toEqual({ done: true, remaining: [] });
  });

  it('runtime-watch: the bundled copy starts with npm start, watches, and stops on SIGTERM', async () => {
    const dir = join(out, 'runtime-watch');
    expect((await readdir(dir)).sort()).toEqual(['dist', 'package.json']);
    const child = start(dir, { K_SINK: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`, LOG_LEVEL: 'info' });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
    });
    for (let i = 0; i < 100 && !output.includes('watching the runtime Kyma'); i++) await sleep(100);
    expect(output).toContain('watching the runtime Kyma of every kubeconfig Secret');
    child.kill('SIGTERM');
    expect([0, 'SIGTERM']).toContain(await ended(child));
  });
});

/** `npm start` in `dir` with the pinned Node first on PATH (as the image's Node ≥ 22 would be). */
function start(dir: string, env: Record<string, string>): ChildProcess {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      KUBECONFIG: kubeconfigPath,
      LIFECYCLE_OCI_REGISTRY: `http://${inject('controlPlane').registryHost}`,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  children.push(child);
  return child;
}

async function ready(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before it was ready`);
    const ok = await fetch(`http://127.0.0.1:${port}/health/readiness`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`not ready on port ${port} within 15 s`);
}

/** How the process ended: its exit code, or the signal that ended it. */
const ended = (child: ChildProcess) =>
  new Promise<number | string>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode ?? '');
    else child.once('exit', (code, signal) => resolve(code ?? signal ?? ''));
  });

/** An event each function accepts, about an object that does not exist: the answer is 204 (nothing to do). */
function eventFor(name: string): { type: string; kind: string } {
  if (name === 'resync') return { type: 'dev.knative.sources.ping', kind: '' };
  if (name === 'render-manifest') return { type: 'io.kyma-project.lifecycle.modules.resolved', kind: 'Kyma' };
  return { type: 'dev.knative.apiserver.resource.update', kind: name === 'apply-remote' ? 'Manifest' : 'Kyma' };
}

async function post(port: number, event: { type: string; kind: string }): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = {
    'ce-specversion': '1.0',
    'ce-id': `bundle-${Date.now()}`,
    'ce-type': event.type,
    'ce-source': 'https://kcp.example:443',
    'content-type': 'application/json',
  };
  if (event.kind)
    Object.assign(headers, {
      'ce-kind': event.kind,
      'ce-apiversion': 'operator.kyma-project.io/v1beta2',
      'ce-name': 'no-such-object',
      'ce-namespace': 'kcp-system',
    });
  const response = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers,
    body: JSON.stringify(
      event.kind
        ? { kind: event.kind, metadata: { name: 'no-such-object', namespace: 'kcp-system' } }
        : { resync: 'due' },
    ),
  });
  return { status: response.status, body: await response.text() };
}
