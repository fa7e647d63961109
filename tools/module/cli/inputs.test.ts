import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinManifests, readDefaultCr, readManifest } from './inputs.ts';

const CRD =
  'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: samples.operator.kyma-project.io\n';
const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: manager\n  namespace: kyma-system\n';
const CONFIG = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\n---\n${DEPLOYMENT}`;
let dir: string;

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'module-cli-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('joinManifests', () => {
  it('ends every text with a newline and puts --- between them', () => {
    expect(joinManifests(['a: 1', 'b: 2\n'])).toBe('a: 1\n---\nb: 2\n');
    expect(joinManifests([CRD])).toBe(CRD);
  });
});

describe('readManifest', () => {
  it('takes a file as it is', async () => {
    const path = await file('single.yaml', CONFIG);
    expect(await readManifest(path)).toMatchObject({
      text: CONFIG,
      files: [path],
      objects: [{ kind: 'ConfigMap' }, { kind: 'Deployment' }],
    });
  });

  it('joins the *.yaml and *.yml files of a directory in name order, other files ignored', async () => {
    await file('module/20-manager.yml', CONFIG);
    await file('module/10-crd.yaml', CRD.trimEnd());
    await file('module/README.md', '# not a manifest');
    const manifest = await readManifest(join(dir, 'module'));
    expect(manifest.files).toEqual([join(dir, 'module/10-crd.yaml'), join(dir, 'module/20-manager.yml')]);
    expect(manifest.text).toBe(`${CRD}---\n${CONFIG}`);
    expect(manifest.objects.map((o) => o.kind)).toEqual(['CustomResourceDefinition', 'ConfigMap', 'Deployment']);
  });

  it.each([
    ['a missing path', async () => join(dir, 'nope.yaml'), 'nope.yaml": no such file or directory'],
    ['an empty file', async () => file('empty.yaml', '  \n'), 'empty.yaml": is empty'],
    [
      'a file of empty documents',
      async () => file('dashes.yaml', '---\n---\n'),
      'dashes.yaml": holds no Kubernetes object',
    ],
    [
      'invalid YAML',
      async () => file('broken.yaml', `${CRD}---\nkind: [unclosed\n`),
      'broken.yaml": raw manifest document 2 is not valid YAML',
    ],
    [
      'a document without kind',
      async () => file('nokind.yaml', 'apiVersion: v1\nmetadata:\n  name: x\n'),
      'nokind.yaml": raw manifest document 1 lacks apiVersion, kind or metadata.name',
    ],
    [
      'a directory without YAML',
      async () => file('docs/README.md', '#').then(() => join(dir, 'docs')),
      'docs": the directory has no *.yaml or *.yml file',
    ],
    [
      'a directory with a kustomization',
      async () => file('kust/kustomization.yaml', 'resources: []').then(() => join(dir, 'kust')),
      'holds a kustomization; render it first',
    ],
  ])('refuses %s, naming the file', async (_, path, message) => {
    const error = await readManifest(await path()).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'InputError', message: expect.stringContaining(message) });
    expect((error as Error).message).toMatch(/^--manifest "/);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('readDefaultCr', () => {
  it('reads one object', async () => {
    const path = await file(
      'cr.yaml',
      'apiVersion: operator.kyma-project.io/v1alpha1\nkind: Sample\nmetadata: {}\nspec:\n  replicas: 1\n',
    );
    expect(await readDefaultCr(path)).toEqual({
      apiVersion: 'operator.kyma-project.io/v1alpha1',
      kind: 'Sample',
      metadata: {},
      spec: { replicas: 1 },
    });
  });

  it.each([
    [
      'two objects',
      'two.yaml',
      `${CRD}---\n${DEPLOYMENT}`,
      'two.yaml": holds 2 objects; expected exactly one custom resource',
    ],
    ['no object', 'none.yaml', '---\n', 'none.yaml": holds 0 objects'],
    ['a list', 'list.yaml', '- a\n- b\n', 'list.yaml": a YAML document is not an object'],
    [
      'an object without kind',
      'nokind-cr.yaml',
      'apiVersion: v1\nspec: {}\n',
      'nokind-cr.yaml": the object lacks apiVersion or kind',
    ],
    ['invalid YAML', 'bad-cr.yaml', 'kind: [x\n', 'bad-cr.yaml": invalid YAML'],
  ])('refuses %s', async (_, name, text, message) => {
    await expect(readDefaultCr(await file(name, text))).rejects.toThrow(message);
  });
});
