import { KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** Server-side apply with force, as the given field manager. Returns the object as stored. */
export async function serverSideApply<T extends KubernetesObject>(kc: KubeConfig, object: T, fieldManager: string):
Promise<T> {
  const api = KubernetesObjectApi.makeApiClient(kc);
  return api.patch(object, undefined, undefined, fieldManager, true, PatchStrategy.ServerSideApply) as Promise<T>;
}

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
