// resync: the steps of a call, in order, [the file that takes each].
// shared/host/invoke.ts runs every call: this one is keyless (the tick points at no object), a thrown error → the
// status the broker retries on.
// The PingSource tick:
//   1. ModuleReleaseMetas, Kymas and Manifests scanned from the watch caches, one small candidate per object  [here]
//   2. PURE: which are due — not Ready every minute, Ready ones in their drift slot; at most
//      LIFECYCLE_RESYNC_MAX_EVENTS, the quiet ones first — and why (drift or pending, ADR 27)           [decide.ts]
//   3. one background resync.due per due object, to the broker ingress                                   [here]
//   4. Kymas a release has not reached: one `release` event for resolve-template (ADR 30)                [here]
import type { Resource } from '../../shared/core/objects.ts';
import { API_VERSION, OUR_MANAGERS } from '../../shared/core/vocabulary.ts';
import { eventAbout, LANE, LANE_BACKGROUND, PING, RESYNC_DUE, RESYNC_REASON, RESYNC_RELEASE } from '../../shared/host/events.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { awaitedReleases, channelVersionsOf, type ChannelVersions } from '../../shared/core/release-spread.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { reasonOf, selectDue, type Candidate } from './decide.ts';

export const NAME = 'resync';
const KINDS = ['Kyma', 'Manifest'] as const;

/**
 * The PingSource tick → one background `resync.due` event (ADR 25) per Kyma and Manifest that is due (at most LIFECYCLE_RESYNC_MAX_EVENTS,
 * those quiet the longest first), sent to the broker ingress; `resyncreason` says drift check or pending (ADR 27). Reads Kymas and Manifests from the watch caches (ADR
 * 17; without copying them — KubeClient.scan; without the caches, page by page) and keeps only a small candidate per object.
 */
export function resync(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.releaseMetas]);
  return {
    name: NAME,
    accepts: [PING],
    keyless: true,
    async handle({ event, log }) {
      const minute = Math.floor(Date.now() / 60_000);
      const namespace = deps.config.kcpNamespace;
      const metas = await deps.kcp.scan<ModuleReleaseMeta, ModuleReleaseMeta>(API_VERSION, 'ModuleReleaseMeta', { namespace }, (m) => ({ ...m, metadata: { name: m.metadata.name } }));
      const versions = channelVersionsOf(metas);
      const candidates: Candidate[] = [];
      for (const kind of KINDS) candidates.push(...await deps.kcp.scan<Listed, Candidate>(API_VERSION, kind, { namespace }, (o) => candidateOf(o, kind, versions)));
      const due = selectDue(candidates, minute, deps.config.driftPeriodMinutes, deps.config.resyncMaxEvents, Date.now());
      const counts: Record<string, number> = Object.fromEntries(KINDS.map((k) => [k, 0]));
      const send = async (kind: string, name: string, reason: string) => {
        await deps.sink(eventAbout(RESYNC_DUE, NAME, { kind, apiVersion: API_VERSION, namespace, name }, event, { [LANE]: LANE_BACKGROUND, [RESYNC_REASON]: reason }));
        counts[kind] = (counts[kind] ?? 0) + 1;
      };
      for (const object of due) await send(object.kind, object.name, reasonOf(object));
      // Kymas a release has not reached: one event lets resolve-template send the next budget's worth (ADR 30).
      const awaiting = candidates.filter((c) => c.awaitsRelease && !c.deleting).length;
      const meta = awaiting ? metas.find((m) => m.spec?.channels?.length && !m.spec.mandatory) : undefined;
      if (meta) await send('ModuleReleaseMeta', meta.metadata.name, RESYNC_RELEASE);
      log.info({ ...counts, objects: candidates.length, budget: deps.config.resyncMaxEvents, awaitingRelease: awaiting }, 'resync events sent');
      return undefined;
    },
  };
}

type Listed = Resource & { metadata: { managedFields?: { manager?: string; time?: string }[] } };

function candidateOf(object: Listed, kind: string, versions: ChannelVersions): Candidate {
  const fields = object.metadata.managedFields ?? [];
  return {
    kind, name: object.metadata.name, state: (object.status as { state?: string } | undefined)?.state,
    deleting: Boolean(object.metadata.deletionTimestamp), lastWrite: newest([object.metadata.creationTimestamp, ...fields.map((f) => f.time)]),
    lastOwnWrite: newest(fields.filter((f) => OUR_MANAGERS.includes(f.manager ?? '')).map((f) => f.time)),
    ...(kind === 'Kyma' && awaitedReleases(object as Kyma, versions).length ? { awaitsRelease: true } : {}),
    ...(kind === 'Kyma' && (object as Kyma).status?.modules?.some((m) => m.maintenance === true) ? { awaitsMaintenance: true } : {}),
  };
}

/** The newest of some API server times, ms since the epoch (0 when none). */
function newest(times: readonly (string | undefined)[]): number {
  const parsed = times.map((t) => (t ? Date.parse(t) : NaN)).filter((t) => !Number.isNaN(t));
  return parsed.length ? Math.max(...parsed) : 0;
}
