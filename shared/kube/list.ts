import type { KubeClient } from './client.ts';
import type { KubeObject, ListOptions } from './types.ts';

type Listing = Omit<ListOptions, 'limit' | 'continue'>;

/** Every object of a kind, read in pages of `pageSize` (the API server's continue tokens). */
export async function listAll<T extends KubeObject>(
  client: KubeClient,
  apiVersion: string,
  kind: string,
  opts: Listing = {},
  pageSize = 500,
): Promise<T[]> {
  const items: T[] = [];
  await eachPage<T>(client, apiVersion, kind, opts, (page) => items.push(...page), pageSize);
  return items;
}

/** Every object of a kind, one page at a time: `take` sees each page and nothing keeps it (a read of a whole fleet
 * holds one page, not the fleet). */
export async function eachPage<T extends KubeObject>(
  client: KubeClient,
  apiVersion: string,
  kind: string,
  opts: Listing,
  take: (items: T[]) => void,
  pageSize = 500,
): Promise<void> {
  let token: string | undefined;
  do {
    const page = await client.list<T>(apiVersion, kind, {
      ...opts,
      limit: pageSize,
      ...(token ? { continue: token } : {}),
    });
    take(page.items);
    token = page.metadata.continue || undefined;
  } while (token);
}
