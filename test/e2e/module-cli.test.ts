// The module packaging CLI (tools/module/cli, `npm run module`) as a module author runs it: a real child process on
// the pinned node pushes to the real registry; its printed YAML is applied with the real kubectl; a Kyma installs
// the module on a real runtime; the real oras reads back what it pushed. Refusals push nothing.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { freePort } from '../../local/controlplane/ports.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { applyKyma, connectRuntime, deleteLeftoverKymas, kymaInState, startWorld, type World } from './world.ts';
import {
  cli,
  CRD,
  DEFAULT_CR,
  documentedModuleCommand,
  MANAGER,
  MODULE,
  REPOSITORY,
  type CliRun,
} from './module-cli-fixture.ts';

const run = promisify(execFile);
let world: World;
let dir: string;
let registryHost: string;
let binDir: string;
let kubeconfig: string;

const oras = (cwd: string, ...args: string[]) => run(join(binDir, 'oras'), args, { cwd });
const registryState = async () => {
  const catalog = (await (await fetch(`http://${registryHost}/v2/_catalog?n=1000`)).json()) as {
    repositories?: string[];
  };
  const tags = (await (await fetch(`http://${registryHost}/v2/${REPOSITORY}/tags/list`)).json()) as { tags?: string[] };
  return { repositories: catalog.repositories, tags: tags.tags };
};
const flags = (version: string, extra: string[] = []) => [
  '--name',
  MODULE,
  '--version',
  version,
  '--manifest',
  join(dir, 'module'),
  '--default-cr',
  join(dir, 'default-cr.yaml'),
  '--registry',
  `http://${registryHost}`,
  ...extra,
];

beforeAll(async () => {
  const cp = inject('controlPlane');
  registryHost = cp.registryHost;
  binDir = cp.binDir;
  world = await startWorld();
  dir = await mkdtemp(join(tmpdir(), 'module-cli-e2e-'));
  await mkdir(join(dir, 'module'));
  await writeFile(join(dir, 'module', '10-crd.yaml'), CRD);
  await writeFile(join(dir, 'module', '20-manager.yml'), MANAGER);
  await writeFile(join(dir, 'module', 'NOTES.md'), '# not part of the manifest\n');
  await writeFile(join(dir, 'default-cr.yaml'), DEFAULT_CR);
  await writeFile(join(dir, 'broken.yaml'), `${CRD}---\nkind: [unclosed\n`);
  kubeconfig = join(dir, 'kcp.kubeconfig');
  await writeFile(kubeconfig, cp.kcp);
});

afterAll(async () => {
  if (world) {
    await deleteLeftoverKymas(world);
    await world.kcp
      .delete({ apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: MODULE })
      .catch(() => undefined);
    await world.kcp
      .delete({ apiVersion: API_VERSION, kind: 'ModuleTemplate', namespace: KCP_NAMESPACE, name: `${MODULE}-1.0.0` })
      .catch(() => undefined);
  }
  await world?.runner.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('module packaging CLI (npm run module)', () => {
  let published: CliRun;

  it('pushes a module version and prints its ModuleTemplate and ModuleReleaseMeta (the documented command, with local paths)', async () => {
    published = await cli(
      await documentedModuleCommand({
        '--version': '1.0.0',
        '--manifest': join(dir, 'module'),
        '--default-cr': join(dir, 'default-cr.yaml'),
        '--registry': `http://${registryHost}`,
      }),
    );
    expect(published.stderr).not.toMatch(/error/i);
    expect(published.code).toBe(0);
    expect(published.stderr).toContain(
      `packaged kyma-project.io/module/${MODULE}:1.0.0: 3 objects from ${join(dir, 'module', '10-crd.yaml')}, ${join(dir, 'module', '20-manager.yml')}, default CR Sample`,
    );
    expect(published.stderr).toContain(`pushed ${registryHost}/${REPOSITORY}:1.0.0 (manifest sha256:`);
    const [template, meta, ...rest] = parseAllDocuments(published.stdout).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(rest).toEqual([]);
    expect(template).toMatchObject({
      kind: 'ModuleTemplate',
      metadata: {
        name: `${MODULE}-1.0.0`,
        namespace: KCP_NAMESPACE,
        labels: { 'operator.kyma-project.io/module-name': MODULE },
      },
      spec: {
        moduleName: MODULE,
        version: '1.0.0',
        data: { kind: 'Sample' },
        descriptor: { component: { name: `kyma-project.io/module/${MODULE}`, version: '1.0.0' } },
      },
    });
    expect(meta).toEqual({
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      metadata: { name: MODULE, namespace: KCP_NAMESPACE },
      spec: {
        moduleName: MODULE,
        ocmComponentName: `kyma-project.io/module/${MODULE}`,
        channels: [{ channel: 'regular', version: '1.0.0' }],
      },
    });
  });

  it('makes a module that a Kyma installs once the printed YAML is applied with kubectl', async () => {
    const output = join(dir, 'published.yaml');
    await writeFile(output, published.stdout);
    const applied = await run(join(binDir, 'kubectl'), ['--kubeconfig', kubeconfig, 'apply', '-f', output]);
    expect(applied.stdout).toContain(`moduletemplate.operator.kyma-project.io/${MODULE}-1.0.0 created`);
    expect(applied.stdout).toContain(`modulereleasemeta.operator.kyma-project.io/${MODULE} created`);

    await connectRuntime(world, 'cli-kyma', 0);
    await applyKyma(world, 'cli-kyma', { channel: 'regular', modules: [{ name: MODULE }] });
    const kyma = await kymaInState(world, 'cli-kyma', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(kyma.status?.modules?.[0]).toMatchObject({
      name: MODULE,
      version: '1.0.0',
      channel: 'regular',
      template: { metadata: { name: `${MODULE}-1.0.0` } },
    });
    const runtime = world.runtimes[0];
    const deployment = await runtime?.get<{ kind?: string; status?: { availableReplicas?: number } }>({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'kyma-system',
      name: 'template-operator-manager',
    });
    expect(deployment?.status?.availableReplicas).toBe(1);
    expect(
      await runtime?.get({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'kyma-system',
        name: 'template-operator-config',
      }),
    ).toMatchObject({ data: { greeting: 'hello from the CLI' } });
    const cr = kyma.status?.modules?.[0]?.resource?.metadata;
    expect(
      await runtime?.get({
        apiVersion: 'operator.kyma-project.io/v1alpha1',
        kind: 'Sample',
        namespace: cr?.namespace ?? 'kyma-system',
        name: cr?.name ?? '',
      }),
    ).toMatchObject({ spec: { resourceFilePath: './module-data/yamls' } });
  });

  it('pushed an OCM artifact that oras reads: media types as upstream, the raw manifest is the input files joined', async () => {
    const ref = `${registryHost}/${REPOSITORY}:1.0.0`;
    const manifest = JSON.parse((await oras(dir, 'manifest', 'fetch', '--plain-http', ref)).stdout) as {
      config: { mediaType: string };
      layers: { mediaType: string; annotations?: Record<string, string> }[];
    };
    expect(manifest.config.mediaType).toBe('application/vnd.ocm.software.component.config.v1+json');
    expect(manifest.layers.map((l) => [l.mediaType, l.annotations?.['org.opencontainers.image.title']])).toEqual([
      ['application/vnd.ocm.software.component-descriptor.v2+yaml+tar', undefined],
      ['application/x-tar', 'raw-manifest.tar'],
      ['application/x-tar', 'default-cr.tar'],
    ]);
    const pulled = join(dir, 'pulled');
    await mkdir(pulled);
    await oras(pulled, 'pull', '--plain-http', ref);
    const rawManifest = (await run('tar', ['-xOf', join(pulled, 'raw-manifest.tar'), 'raw-manifest.yaml'])).stdout;
    expect(rawManifest).toBe(`${CRD}---\n${MANAGER}`);
    const defaultCr = (await run('tar', ['-xOf', join(pulled, 'default-cr.tar'), 'default-cr.yaml'])).stdout;
    expect(parseAllDocuments(defaultCr).map((d) => d.toJS() as unknown)).toEqual(
      parseAllDocuments(DEFAULT_CR).map((d) => d.toJS() as unknown),
    );
    expect(await readFile(join(dir, 'module', '10-crd.yaml'), 'utf8')).toBe(CRD);
  });

  it.each([
    ['an invalid version', () => flags('1.0'), '--version "1.0": expected a semantic version MAJOR.MINOR.PATCH'],
    ['build metadata', () => flags('1.0.1+build.5'), '--version "1.0.1+build.5": build metadata'],
    [
      'an invalid name',
      () => ['--name', 'Template_Operator', ...flags('1.0.1').slice(2)],
      '--name "Template_Operator": expected words of at least 3 lowercase letters',
    ],
    [
      'a missing manifest',
      () => flags('1.0.1').map((a) => (a === join(dir, 'module') ? join(dir, 'missing') : a)),
      '/missing": no such file or directory (expected a YAML file or a directory of them)',
    ],
    [
      'no manifest flag',
      () => flags('1.0.1').filter((a, i, all) => a !== '--manifest' && all[i - 1] !== '--manifest'),
      '--manifest is required',
    ],
    [
      'a manifest that is not valid YAML',
      () => flags('1.0.1').map((a) => (a === join(dir, 'module') ? join(dir, 'broken.yaml') : a)),
      'broken.yaml": raw manifest document 2 is not valid YAML',
    ],
    [
      'a manifest without objects',
      () => flags('1.0.1').map((a) => (a === join(dir, 'module') ? join(dir, 'module', 'NOTES.md') : a)),
      'NOTES.md": holds no Kubernetes object',
    ],
    [
      'a document without kind',
      () => flags('1.0.1').map((a) => (a === join(dir, 'module') ? join(dir, 'default-cr.yaml') : a)),
      'default-cr.yaml": raw manifest document 1 lacks apiVersion, kind or metadata.name',
    ],
    [
      'a default CR of two objects',
      () => flags('1.0.1').map((a) => (a === join(dir, 'default-cr.yaml') ? join(dir, 'module', '20-manager.yml') : a)),
      'holds 2 objects; expected exactly one custom resource',
    ],
  ])('refuses %s with one clear line, exit code 2, and pushes nothing', async (_, args, message) => {
    const before = await registryState();
    const refused = await cli(args());
    expect(refused).toEqual({ code: 2, stdout: '', stderr: expect.stringMatching(/^error: [^\n]+\n$/) });
    expect(refused.stderr).toContain(message);
    expect(await registryState()).toEqual(before);
  });

  it('refuses to replace a published version unless told to', async () => {
    const again = await cli(flags('1.0.0'));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      `error: ${registryHost}/${REPOSITORY}:1.0.0 already exists: component versions are immutable`,
    );
    expect(again.stdout).toBe('');
    expect((await cli(flags('1.0.0', ['--overwrite']))).code).toBe(0);
  });

  it('refuses an unreachable registry', async () => {
    const port = await freePort();
    const refused = await cli([...flags('1.0.1').slice(0, -1), `http://127.0.0.1:${port}`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error: manifest 127.0.0.1:${port}/${REPOSITORY}:1.0.1: registry unreachable (ECONNREFUSED); check --registry`,
    );
  });
});
