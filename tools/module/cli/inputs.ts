import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseModuleObjects, type RuntimeObject } from '../../../shared/render/render.ts';
import { parseManifests } from '../../../local/controlplane/object-files.ts';
import { InputError } from '../../../shared/host/input-rules.ts';

/** The raw manifest as it is pushed (one multi-document YAML) and the objects apply-remote will find in it. */
export interface ManifestInput {
  text: string;
  files: string[];
  objects: RuntimeObject[];
}

export type DefaultCr = Record<string, unknown> & { apiVersion: string; kind: string };

const YAML_FILE = /\.ya?ml$/;

/**
 * A file, or every `*.yaml`/`*.yml` file of a directory in name order joined into one multi-document YAML (the
 * raw-manifest layer holds one file, as modulectl's). Each file must parse the way apply-remote parses the layer:
 * valid YAML, every document with apiVersion, kind and metadata.name, at least one object.
 */
export async function readManifest(path: string, flag = '--manifest'): Promise<ManifestInput> {
  const files = await manifestFiles(path, flag);
  const texts: string[] = [];
  for (const file of files) {
    const text = await readText(flag, file);
    const objects = parseOrRefuse(() => parseModuleObjects(text), `${flag} "${file}"`);
    if (objects.length === 0)
      throw new InputError(
        `${flag} "${file}": holds no Kubernetes object (expected YAML documents with apiVersion, kind and metadata.name)`,
      );
    texts.push(text);
  }
  const text = joinManifests(texts);
  return {
    text,
    files,
    objects: parseOrRefuse(() => parseModuleObjects(text), `${flag} "${path}" (the files joined)`),
  };
}

/** PURE. YAML texts as one stream: each ends with a newline, `---` between them. */
export function joinManifests(texts: string[]): string {
  return texts.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
}

async function manifestFiles(path: string, flag: string): Promise<string[]> {
  const found = await stat(path).catch(() => undefined);
  if (!found)
    throw new InputError(`${flag} "${path}": no such file or directory (expected a YAML file or a directory of them)`);
  if (!found.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => YAML_FILE.test(n)).sort();
  if (names.some((n) => /^kustomization\.ya?ml$/.test(n))) {
    throw new InputError(
      `${flag} "${path}": holds a kustomization; render it first (kubectl kustomize ${path} > manifest.yaml) and pass that file`,
    );
  }
  if (names.length === 0) throw new InputError(`${flag} "${path}": the directory has no *.yaml or *.yml file`);
  return names.map((n) => join(path, n));
}

/** The default CR: exactly one object with apiVersion and kind (its name defaults to the Manifest's when absent). */
export async function readDefaultCr(path: string): Promise<DefaultCr> {
  const text = await readText('--default-cr', path);
  const docs = parseOrRefuse(() => parseManifests(text, `--default-cr "${path}"`));
  if (docs.length !== 1)
    throw new InputError(`--default-cr "${path}": holds ${docs.length} objects; expected exactly one custom resource`);
  const object = docs[0]?.object ?? {};
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new InputError(`--default-cr "${path}": the object lacks apiVersion or kind`);
  }
  return object as DefaultCr;
}

/** A file's text; a missing, unreadable or empty file is refused, naming the flag. */
export async function readText(flag: string, path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new InputError(`${flag} "${path}": cannot be read (${code === 'ENOENT' ? 'no such file' : code})`);
  }
  if (!text.trim()) throw new InputError(`${flag} "${path}": is empty`);
  return text;
}

/** Runs a parser; its error becomes an InputError of one line, prefixed with `what` when given. */
export function parseOrRefuse<T>(parse: () => T, what = ''): T {
  try {
    return parse();
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/:$/, '') ?? '';
    throw new InputError(what ? `${what}: ${message}` : message);
  }
}
