import type { Resource } from '../../shared/domain/objects.ts';
import { API_VERSION } from '../../shared/domain/vocabulary.ts';
import type { KubeClient } from '../../shared/k8s/client.ts';
import { eventAbout, PING, RESYNC_DUE, type EventAttributes } from '../../shared/runtime/events.ts';
import type { FunctionDeps } from '../../shared/runtime/deps.ts';
import type { LifecycleFunction } from '../../shared/runtime/invoke.ts';
import { isDue } from './decide.ts';

export const NAME = 'resync';
const KINDS = ['Kyma', 'Manifest'] as const;
const PAGE = 500;

/**
 * The PingSource tick → one `resync.due` event per Kyma and Manifest that is due, sent to the broker ingress.
 * Lists page by page (500 a page) so memory stays flat at 25,000 objects.
 */
export function resync(deps: FunctionDeps): LifecycleFunction {
  return {
    name: NAME,
    accepts: [PING],
    keyless: true,
    async handle({ event, log }) {
      const minute = Math.floor(Date.now() / 60_000);
      const counts: Record<string, number> = {};
      for (const kind of KINDS) counts[kind] = await resyncKind(deps, kind, minute, event);
      log.info(counts, 'resync events sent');
      return undefined;
    },
  };
}

async function resyncKind(deps: FunctionDeps, kind: string, minute: number, cause: EventAttributes): Promise<number> {
  let sent = 0;
  for await (const page of pages(deps.kcp, kind, deps.config.kcpNamespace)) {
    for (const object of page) {
      const candidate = { name: object.metadata.name, state: (object.status as { state?: string } | undefined)?.state, deleting: Boolean(object.metadata.deletionTimestamp) };
      if (!isDue(candidate, minute, deps.config.driftPeriodMinutes)) continue;
      const key = { kind, apiVersion: API_VERSION, namespace: object.metadata.namespace ?? '', name: object.metadata.name };
      await deps.sink(eventAbout(RESYNC_DUE, NAME, key, cause));
      sent++;
    }
  }
  return sent;
}

async function* pages(kcp: KubeClient, kind: string, namespace: string): AsyncGenerator<Resource[]> {
  let token: string | undefined;
  do {
    const page = await kcp.list<Resource>(API_VERSION, kind, { namespace, limit: PAGE, ...(token ? { continue: token } : {}) });
    yield page.items;
    token = page.metadata.continue || undefined;
  } while (token);
}
