// Who sent the lifecycle manager's requests (issue 20): the in-process request tally of a run
// (shared/kube/request-tally.ts) by function, per module install, on the KCP and on the runtimes. Pure.
import { WRITE_VERBS, type TalliedRequest } from '../shared/kube/request-tally.ts';

const round = (n: number) => Number(n.toFixed(2));

/** Requests and writes per install, the most frequent ones, the connections opened (TLS handshakes) per install, and
 * every write by `<verb> <resource>` (counts, not per install: a pair of runs is told apart write by write). */
interface Side {
  requests: number;
  writes: number;
  connections: number;
  top: Record<string, number>;
  writesByVerbResource: Record<string, number>;
}
export interface FunctionCost {
  kcp: Side;
  runtimes: Side;
}

/** Per function (the caller of each request; `other`: sources, watches, the bench): requests, writes and connections
 * opened per install on each side, and the function's most frequent `<verb> <resource>` per install there. */
export function costByFunction(
  rows: readonly TalliedRequest[],
  kcpServer: string,
  installs: number,
): Record<string, FunctionCost> {
  const per = Math.max(1, installs);
  const sides = new Map<string, { kcp: Map<string, number>; runtimes: Map<string, number> }>();
  for (const row of rows) {
    const entry = sides.get(row.caller) ?? { kcp: new Map(), runtimes: new Map() };
    sides.set(row.caller, entry);
    const side = row.server === kcpServer ? entry.kcp : entry.runtimes;
    const key = `${row.verb} ${row.resource}`;
    side.set(key, (side.get(key) ?? 0) + row.count);
  }
  const summary = (counts: Map<string, number>): Side => {
    let requests = 0;
    let writes = 0;
    const writesByVerbResource: Record<string, number> = {};
    const connections = counts.get('connect tls') ?? 0;
    counts.delete('connect tls');
    for (const [key, n] of counts) {
      requests += n;
      if (!WRITE_VERBS.has(key.split(' ')[0] ?? '')) continue;
      writes += n;
      writesByVerbResource[key] = n;
    }
    const top = Object.fromEntries(
      [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, n]) => [k, round(n / per)]),
    );
    const perInstall = {
      requests: round(requests / per),
      writes: round(writes / per),
      connections: round(connections / per),
    };
    return { ...perInstall, top, writesByVerbResource };
  };
  return Object.fromEntries(
    [...sides]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([caller, s]) => [caller, { kcp: summary(s.kcp), runtimes: summary(s.runtimes) }]),
  );
}

/** Rows counted between two readings of the same counters (the function processes count from their start). */
export function requestsSince(now: readonly TalliedRequest[], before: readonly TalliedRequest[]): TalliedRequest[] {
  const key = (r: TalliedRequest) => `${r.caller}\t${r.server}\t${r.verb}\t${r.resource}`;
  const earlier = new Map<string, number>();
  for (const r of before) earlier.set(key(r), (earlier.get(key(r)) ?? 0) + r.count);
  const since = new Map<string, TalliedRequest>();
  for (const r of now) {
    const row = since.get(key(r)) ?? { ...r, count: 0 };
    since.set(key(r), { ...row, count: row.count + r.count });
  }
  for (const [k, row] of since) row.count -= earlier.get(k) ?? 0;
  return [...since.values()].filter((r) => r.count > 0);
}

/** Calls handled per install by caller name (`<function> ← <event> <kind>`), those of at least 0.01, most first. */
export function callsPerInstall(calls: Readonly<Record<string, number>>, installs: number): Record<string, number> {
  const per = Math.max(1, installs);
  return Object.fromEntries(
    Object.entries(calls)
      .map(([caller, n]): [string, number] => [caller, round(n / per)])
      .filter(([, n]) => n >= 0.01)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  );
}
