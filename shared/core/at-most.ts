/** `work` on every item, `limit` at a time (in slices of `limit`), answers in the items' order; rejects as
 * Promise.all does. How a call spreads requests to one API server without sending them all at once. */
export async function mapAtMost<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += limit)
    results.push(...(await Promise.all(items.slice(i, i + limit).map(work))));
  return results;
}
