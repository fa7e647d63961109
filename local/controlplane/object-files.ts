// Kubernetes objects read from YAML files: manifests/ (the Triggers, sources and CRDs the embedded default runs), a
// module's files for the module CLI.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One Kubernetes object read from a YAML file, with the file it came from (for error messages). */
export interface ManifestDocument {
  readonly file: string;
  readonly object: Record<string, unknown>;
}

/** Every object of every `*.yaml`/`*.yml` file of a directory (multi-document; kustomization files skipped). */
export async function readManifestDirectory(dir: string): Promise<ManifestDocument[]> {
  const files = (await readdir(dir)).filter(isManifestFile).sort();
  const perFile = await Promise.all(
    files.map(async (name) => parseManifests(await readFile(join(dir, name), 'utf8'), join(dir, name))),
  );
  return perFile.flat();
}

/** The objects of one YAML text; `file` names the source in errors. */
export function parseManifests(text: string, file: string): ManifestDocument[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: invalid YAML: ${doc.errors[0]?.message ?? 'parse error'}`);
    const object: unknown = doc.toJS();
    if (object === null || object === undefined) return [];
    if (typeof object !== 'object' || Array.isArray(object))
      throw new Error(`${file}: a YAML document is not an object`);
    return [{ file, object: object as Record<string, unknown> }];
  });
}

/** The documents of the given apiVersion and kind. */
export function ofKind(docs: readonly ManifestDocument[], apiVersion: string, kind: string): ManifestDocument[] {
  return docs.filter((doc) => doc.object.apiVersion === apiVersion && doc.object.kind === kind);
}

function isManifestFile(name: string): boolean {
  return /\.ya?ml$/.test(name) && !/^kustomization\.ya?ml$/.test(name);
}
