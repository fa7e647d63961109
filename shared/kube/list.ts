import type { KubeClient } from './client.ts';
import type { KubeObject, ListOptions } from './types.ts';

/** Every object of a kind, read in pages of `pageSize` (the API server's continue tokens). */
export async function listAll<T extends KubeObject>(
  client: KubeClient,
  apiVersion: string,
  kind: string,
  opts: Omit<ListOptions, 'limit' | 'continue'> = {},
  pageSize = 500,
): Promise<T[]> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await client.list<T>(apiVersion, kind, {
      ...opts,
      limit: pageSize,
      ...(token ? { continue: token } : {}),
    });
    items.push(...page.items);
    token = page.metadata.continue || undefined;
  } while (token);
  return items;
}
