import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifestDirectory } from './object-files.ts';

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const names = (docs: { object: Record<string, unknown> }[]) =>
  docs.map((doc) => (doc.object.metadata as { name: string }).name);

describe('readManifestDirectory keeps a parsed copy', () => {
  let dir: string;
  let parsed: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'manifests-'));
    parsed = await mkdtemp(join(tmpdir(), 'parsed-'));
    await writeFile(join(dir, 'a.yaml'), `${configMap('a')}---\n${configMap('b')}`);
    await writeFile(join(dir, 'c.yml'), configMap('c'));
    await writeFile(join(dir, 'kustomization.yaml'), 'resources: [a.yaml]\n');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(parsed, { recursive: true, force: true });
  });

  const copyFile = async () => join(parsed, (await readdir(parsed))[0] ?? 'none');

  it('reads the objects of every YAML file and keeps them as JSON', async () => {
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['a', 'b', 'c']);
    const copy = JSON.parse(await readFile(await copyFile(), 'utf8')) as { docs: unknown[] };
    expect(copy.docs).toHaveLength(3);
  });

  it('takes a later read from the copy while no file changed', async () => {
    await readManifestDirectory(dir, parsed);
    const file = await copyFile();
    await writeFile(file, (await readFile(file, 'utf8')).replace('"name":"c"', '"name":"from-the-copy"'));
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['a', 'b', 'from-the-copy']);
  });

  it('parses again after a file changed, was added or removed', async () => {
    await readManifestDirectory(dir, parsed);
    await writeFile(join(dir, 'c.yml'), configMap('changed'));
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['a', 'b', 'changed']);
    await writeFile(join(dir, 'd.yaml'), configMap('d'));
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['a', 'b', 'changed', 'd']);
    await rm(join(dir, 'a.yaml'));
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['changed', 'd']);
  });

  it('parses again when the copy is damaged, and reads without a place for copies', async () => {
    await readManifestDirectory(dir, parsed);
    await writeFile(await copyFile(), '{"stamps": [');
    expect(names(await readManifestDirectory(dir, parsed))).toEqual(['a', 'b', 'c']);
    const notADirectory = join(dir, 'c.yml');
    expect(names(await readManifestDirectory(dir, notADirectory))).toEqual(['a', 'b', 'c']);
  });

  it('still rejects invalid YAML, naming the file', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'a: [1, 2\n');
    await expect(readManifestDirectory(dir, parsed)).rejects.toThrow(/bad\.yaml: invalid YAML/);
  });
});
