// Kubernetes objects read from YAML files: manifests/ (the Triggers, sources and CRDs the embedded default runs), a
// module's files for the module CLI.
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/** Where directories read before keep their objects as JSON (git-ignored, next to the bundles). */
const PARSED = fileURLToPath(new URL('../../.run/manifests/', import.meta.url));

/** One Kubernetes object read from a YAML file, with the file it came from (for error messages). */
export interface ManifestDocument {
  readonly file: string;
  readonly object: Record<string, unknown>;
}

/** Every object of every `*.yaml`/`*.yml` file of a directory (multi-document; kustomization files skipped). A
 * directory read before, none of its files changed since, comes from its JSON copy in `parsedInto`: parsing the YAML
 * was a tenth of a start's CPU. */
export async function readManifestDirectory(dir: string, parsedInto = PARSED): Promise<ManifestDocument[]> {
  const files = (await readdir(dir)).filter(isManifestFile).sort();
  const stamps = await Promise.all(
    files.map(async (name) => {
      const { mtimeMs, size } = await stat(join(dir, name));
      return `${name}:${mtimeMs}:${size}`;
    }),
  );
  const copy = join(parsedInto, `${dir.replace(/[^\w.-]+/g, '_')}.json`);
  const kept = await readFile(copy, 'utf8')
    .then((text) => JSON.parse(text) as Partial<ParsedCopy>)
    .catch(() => undefined);
  if (Array.isArray(kept?.stamps) && kept.docs && kept.stamps.join('\n') === stamps.join('\n')) return kept.docs;
  const perFile = await Promise.all(
    files.map(async (name) => parseManifests(await readFile(join(dir, name), 'utf8'), join(dir, name))),
  );
  const docs = perFile.flat();
  await keepCopy(copy, { stamps, docs });
  return docs;
}

/** A directory's objects and what its files were (name, modification time, size) when they were read. */
interface ParsedCopy {
  stamps: string[];
  docs: ManifestDocument[];
}

/** Written whole or not at all (another start may read it meanwhile); a copy that cannot be written is only slower. */
async function keepCopy(file: string, copy: ParsedCopy): Promise<void> {
  try {
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(`${file}.${process.pid}`, JSON.stringify(copy));
    await rename(`${file}.${process.pid}`, file);
  } catch {
    // read-only checkout: the next start parses again
  }
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
