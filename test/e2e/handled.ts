// Negative checks that observe instead of sleeping (issue 34): "nothing happened" is asserted once what would have made
// it happen was handled, not after a fixed sleep. An event about the object is sent through the world's broker and the
// calls it reaches are awaited: every function call logs one line when it finishes (shared/host/invoke.ts: `done`, or
// the error with its status), with the event's id, into the world's log file (test/e2e/capture.ts).
import { readFile } from 'node:fs/promises';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { eventAbout, RESYNC_DUE, type ObjectKey } from '../../shared/host/events.ts';
import { eventually, type World } from './world.ts';

/** A finished call of a function, as it logged it. */
export interface Call {
  fn: string;
  status: number;
  msg: string;
  replyType?: string;
}

/** PURE. The finished calls of the functions for the event `id` among JSON log lines. */
export function callsIn(lines: string, id: string): Call[] {
  const calls: Call[] = [];
  for (const line of lines.split('\n')) {
    if (!line.includes(id)) continue;
    const entry = JSON.parse(line) as Partial<Call> & { ceId?: string };
    if (entry.ceId === id && typeof entry.status === 'number' && entry.fn)
      calls.push({
        fn: entry.fn,
        status: entry.status,
        msg: entry.msg ?? '',
        ...(entry.replyType ? { replyType: entry.replyType } : {}),
      });
  }
  return calls;
}

export const kymaKey = (name: string): ObjectKey => ({
  kind: 'Kyma',
  apiVersion: API_VERSION,
  namespace: KCP_NAMESPACE,
  name,
});
export const manifestKey = (name: string): ObjectKey => ({
  kind: 'Manifest',
  apiVersion: API_VERSION,
  namespace: KCP_NAMESPACE,
  name,
});

/** Which functions a full check's `resync.due` (no reason) reaches (manifests/triggers): a Kyma's goes to three, a
 * Manifest's to apply-remote; a drift check's skips purge (ADR 91). */
const REACHES: Record<string, string[]> = {
  Kyma: ['resolve-template', 'aggregate-status', 'purge'],
  Manifest: ['apply-remote'],
};

/**
 * Sends a `resync.due` about `key` — a full check, as one replayed by hand, carrying the object's current
 * resourceVersion — through the world's broker and waits
 * until every function it reaches finished a call about it; with `idle` (default), then until the broker is idle, so
 * that what those calls caused (their replies, the events of their writes) is handled too. Not `idle` where calls are
 * being retried anyway (a blocked deletion keeps the broker busy). Answers the calls.
 */
export async function checkedAgain(
  world: World,
  key: ObjectKey,
  { idle = true, timeoutMs = 60_000 } = {},
): Promise<Call[]> {
  const fns = REACHES[key.kind] ?? [];
  // The calls read it from their watch caches no older than the test sees it now (its labels, its deletion).
  const seen = (
    await world.kcp.get<{ metadata: { resourceVersion?: string } }>({
      apiVersion: key.apiVersion,
      kind: key.kind,
      namespace: key.namespace,
      name: key.name,
    })
  )?.metadata.resourceVersion;
  const event = eventAbout(RESYNC_DUE, 'e2e', key, undefined, seen ? { resourceversion: seen } : {});
  await world.runner.broker.publish(event);
  let calls: Call[] = [];
  await eventually(
    () =>
      `${fns.join(', ')} finished a call about ${key.kind} ${key.name} (event ${event.id}; calls so far: ${JSON.stringify(calls)})`,
    async () => {
      calls = callsIn(await readFile(world.logFile, 'utf8'), event.id);
      return fns.every((fn) => calls.some((c) => c.fn === fn));
    },
    timeoutMs,
  );
  if (idle) await world.runner.broker.idle();
  return calls;
}
