import type { KubernetesObject } from '@kubernetes/client-node';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** Every Kubernetes object in the YAML files of a directory (kustomization files skipped), file order kept. */
export async function readObjectsFromDir(dir: string): Promise<KubernetesObject[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('kustomization')).sort();
  const objects: KubernetesObject[] = [];
  for (const file of files) objects.push(...parseObjects(await readFile(join(dir, file), 'utf8')));
  return objects;
}

export function parseObjects(text: string): KubernetesObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS({ maxAliasCount: 100 }) as KubernetesObject | null)
    .filter((obj): obj is KubernetesObject => Boolean(obj?.kind));
}
