// The runtime Kyma ledger: for the whole integration run, the global setup polls the runtimes' Kymas and the KCP's
// Kymas (twice a second) and writes a line for every runtime Kyma that appears or goes, with its owner and whether
// that owner was still in the KCP. A runtime Kyma created for a Kyma that was already gone is the leak ADR 35 rules
// out; test/runtime-kymas.test.ts (run last) fails on one, naming its owner, time and creator.
import { appendFile, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { ANNOTATION, API_VERSION } from '../shared/core/vocabulary.ts';
import type { KubeClient } from '../shared/kube/client.ts';

interface Seen {
  metadata: {
    uid?: string;
    name?: string;
    namespace?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    annotations?: Record<string, string>;
    managedFields?: { manager?: string }[];
  };
  spec?: { modules?: { name: string }[] };
}

export interface LedgerLine {
  at: string;
  event: 'appeared' | 'gone';
  runtime: number;
  kyma: string;
  uid: string;
  owner: string;
  modules: string[];
  managers: string[];
  created?: string;
  /** When the ledger last saw the owner in the KCP without a deletionTimestamp ('' = never); for 'appeared' lines. */
  ownerLastLive?: string;
  /** Whether the owner was in the KCP (not being deleted) when the runtime Kyma was first seen. */
  ownerLive?: boolean;
}

const KYMAS = `/apis/${API_VERSION}/kymas`;

async function kymasOn(client: KubeClient): Promise<Seen[] | undefined> {
  return client.request<{ items: Seen[] }>('GET', KYMAS).then(
    (l) => l.items,
    () => undefined,
  );
}

/** Polls until `signal` aborts, appending LedgerLines to `file`. */
export async function keepLedger(
  kcp: KubeClient,
  runtimes: KubeClient[],
  file: string,
  signal: AbortSignal,
): Promise<void> {
  const known = new Map<string, LedgerLine>();
  const lastLive = new Map<string, string>();
  while (!signal.aborted) {
    const now = new Date().toISOString();
    const seen = new Set<string>();
    const lines: LedgerLine[] = [];
    for (const [runtime, client] of runtimes.entries()) {
      const items = await kymasOn(client);
      if (!items) {
        for (const [uid, line] of known) if (line.runtime === runtime) seen.add(uid);
        continue;
      }
      for (const item of items) {
        const uid = item.metadata.uid ?? '';
        seen.add(uid);
        if (known.has(uid)) continue;
        const line: LedgerLine = {
          at: now,
          event: 'appeared',
          runtime,
          kyma: `${item.metadata.namespace}/${item.metadata.name}`,
          uid,
          owner: item.metadata.annotations?.[ANNOTATION.ownedBy] ?? '',
          modules: (item.spec?.modules ?? []).map((m) => m.name),
          managers: (item.metadata.managedFields ?? []).map((f) => f.manager ?? ''),
          created: item.metadata.creationTimestamp ?? '',
        };
        known.set(uid, line);
        lines.push(line);
      }
    }
    const live = new Set<string>();
    for (const kyma of (await kymasOn(kcp)) ?? []) {
      const name = `${kyma.metadata.namespace}/${kyma.metadata.name}`;
      if (kyma.metadata.deletionTimestamp) continue;
      live.add(name);
      lastLive.set(name, new Date().toISOString());
    }
    for (const line of lines)
      Object.assign(line, { ownerLive: live.has(line.owner), ownerLastLive: lastLive.get(line.owner) ?? '' });
    for (const [uid, line] of known) {
      if (seen.has(uid)) continue;
      known.delete(uid);
      lines.push({ ...line, at: now, event: 'gone' });
    }
    if (lines.length) await appendFile(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    await sleep(500, undefined, { signal }).catch(() => undefined);
  }
}

export async function readLedger(file: string): Promise<LedgerLine[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LedgerLine);
}

/** PURE. Runtime Kymas that appeared after their owner was last seen live in the KCP (by more than `slackMs`): created
 * for a Kyma already gone or being deleted. Owners never seen live (another KCP's Kymas) are not judged. */
export function leaks(lines: readonly LedgerLine[], slackMs = 2_000): LedgerLine[] {
  return lines.filter(
    (l) =>
      l.event === 'appeared' &&
      !l.ownerLive &&
      l.ownerLastLive &&
      Date.parse(l.created ?? '') > Date.parse(l.ownerLastLive) + slackMs,
  );
}

/** The log line resolve-template writes when its second live read found the Kyma gone and it deleted what it made. */
export const UNDONE = 'runtime Kyma created, then deleted';

/** PURE. Whether a leak is ADR 35's race, undone: a creator logged that its live read before the create saw the Kyma
 * live and the one after saw it gone, so it deleted the runtime Kyma again (logged within 10 s of the creation), and the
 * ledger saw that runtime Kyma go. */
export function undoneRace(leak: LedgerLine, creators: readonly string[], lines: readonly LedgerLine[]): boolean {
  const created = Date.parse(leak.created ?? '');
  const undone = creators.some((text) => {
    const time = Number(/"time":(\d+)/.exec(text)?.[1]);
    return text.includes(UNDONE) && Math.abs(time - created) < 10_000;
  });
  return undone && lines.some((l) => l.event === 'gone' && l.uid === leak.uid);
}
