import type { Resource } from '../../shared/domain/objects.ts';
import { API_VERSION } from '../../shared/domain/vocabulary.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { eventAbout, PING, RESYNC_DUE } from '../../shared/runtime/events.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/runtime/deps.ts';
import type { LifecycleFunction } from '../../shared/runtime/invoke.ts';
import { selectDue, type Candidate } from './decide.ts';

export const NAME = 'resync';
const KINDS = ['Kyma', 'Manifest'] as const;
const PAGE = 500;

/**
 * The PingSource tick → one `resync.due` event per Kyma and Manifest that is due (at most LIFECYCLE_RESYNC_MAX_EVENTS,
 * those quiet the longest first), sent to the broker ingress. Reads Kymas and Manifests from the watch caches (ADR
 * 17; without them, page by page, 500 a page) and keeps only a small candidate per object.
 */
export function resync(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests]);
  return {
    name: NAME,
    accepts: [PING],
    keyless: true,
    async handle({ event, log }) {
      const minute = Math.floor(Date.now() / 60_000);
      const candidates: Candidate[] = [];
      for (const kind of KINDS) for await (const page of pages(deps.kcp, kind, deps.config.kcpNamespace)) candidates.push(...page.map(candidateOf));
      const due = selectDue(candidates, minute, deps.config.driftPeriodMinutes, deps.config.resyncMaxEvents, Date.now());
      const counts: Record<string, number> = Object.fromEntries(KINDS.map((k) => [k, 0]));
      for (const object of due) {
        const key = { kind: object.kind, apiVersion: API_VERSION, namespace: deps.config.kcpNamespace, name: object.name };
        await deps.sink(eventAbout(RESYNC_DUE, NAME, key, event));
        counts[object.kind] = (counts[object.kind] ?? 0) + 1;
      }
      log.info({ ...counts, objects: candidates.length, budget: deps.config.resyncMaxEvents }, 'resync events sent');
      return undefined;
    },
  };
}

type Listed = Resource & { metadata: { managedFields?: { time?: string }[] } };

function candidateOf(object: Listed): Candidate {
  const times = [object.metadata.creationTimestamp, ...(object.metadata.managedFields ?? []).map((f) => f.time)].map((t) => (t ? Date.parse(t) : NaN)).filter((t) => !Number.isNaN(t));
  return {
    kind: object.kind, name: object.metadata.name, state: (object.status as { state?: string } | undefined)?.state,
    deleting: Boolean(object.metadata.deletionTimestamp), lastWrite: times.length ? Math.max(...times) : 0,
  };
}

async function* pages(kcp: KubeClient, kind: string, namespace: string): AsyncGenerator<Listed[]> {
  let token: string | undefined;
  do {
    const page = await kcp.list<Listed>(API_VERSION, kind, { namespace, limit: PAGE, ...(token ? { continue: token } : {}) });
    yield page.items.map((item) => ({ ...item, kind }));
    token = page.metadata.continue || undefined;
  } while (token);
}
