// resync: the PingSource tick → one background resync.due per Kyma and Manifest that is due (ADR 25, 27), and the
// release tick (ADR 30). The order of events is decide.ts (ADR 45); here the watch caches are scanned and the events
// sent. shared/host/invoke.ts runs every call (keyless: the tick points at no object).
import type { Resource } from '../../shared/core/objects.ts';
import { API_VERSION, LABEL, OUR_MANAGERS } from '../../shared/core/vocabulary.ts';
import {
  eventAbout,
  LANE,
  LANE_BACKGROUND,
  PING,
  RESYNC_DUE,
  RESYNC_REASON,
  type EventAttributes,
} from '../../shared/host/events.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { awaitedReleases, channelVersionsOf, type ChannelVersions } from '../../shared/core/release-spread.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { CACHED, readingFromCaches, type FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { modulesDue } from '../../shared/host/modules-due.ts';
import { driftStretch, outstandingWork, resyncSteps, type Candidate, type ResyncStep } from './decide.ts';

export const NAME = 'resync';
const KINDS = ['Kyma', 'Manifest'] as const;

/** The PingSource tick → one background `resync.due` (ADR 25) per due Kyma and Manifest (at most
 * LIFECYCLE_RESYNC_MAX_EVENTS, ADR 16; a Kyma's Manifests' drift checks in one `modules.due`, ADR 94), `resyncreason`
 * drift or pending (ADR 27); Kymas and Manifests are scanned from the watch caches without copying (ADR 17). */
const metaView = (m: ModuleReleaseMeta) => ({
  name: m.metadata.name,
  channels: m.spec?.channels?.length ?? 0,
  mandatory: Boolean(m.spec?.mandatory),
});

export function resync(given: FunctionDeps): LifecycleFunction {
  const deps = readingFromCaches(given, [CACHED.kymas, CACHED.manifests, CACHED.releaseMetas]);
  /** The ModuleReleaseMetas, their names and specs only. */
  const releaseMetas = (namespace: string) =>
    deps.kcp.scan<ModuleReleaseMeta, ModuleReleaseMeta>(API_VERSION, 'ModuleReleaseMeta', { namespace }, (m) => ({
      ...m,
      metadata: { name: m.metadata.name },
    }));
  /** Every Kyma and Manifest as the resync decides on it. */
  const candidatesOf = async (
    namespace: string,
    versions: ReturnType<typeof channelVersionsOf>,
  ): Promise<Candidate[]> => {
    const candidates: Candidate[] = [];
    for (const kind of KINDS) {
      const scan = (o: Listed) => candidateOf(o, kind, versions);
      candidates.push(...(await deps.kcp.scan<Listed, Candidate>(API_VERSION, kind, { namespace }, scan)));
    }
    return candidates;
  };
  /** Sends the tick's events (a Kyma's Manifests' drift checks in one `modules.due`, ADR 94); answers the objects by
   * kind they were about. */
  const send = async (steps: ResyncStep[], namespace: string, cause: EventAttributes) => {
    const counts: Record<string, number> = Object.fromEntries([...KINDS, 'ModuleReleaseMeta'].map((k) => [k, 0]));
    for (const { kind, name, reason, manifests } of steps) {
      const extensions = { [LANE]: LANE_BACKGROUND, [RESYNC_REASON]: reason };
      const key = { kind, apiVersion: API_VERSION, namespace, name };
      const sent = manifests
        ? modulesDue(NAME, key, manifests, cause, extensions)
        : [eventAbout(RESYNC_DUE, NAME, key, cause, extensions)];
      for (const one of sent) await deps.sink(one);
      if (manifests) counts.Manifest = (counts.Manifest ?? 0) + manifests.length;
      else counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return counts;
  };
  return {
    name: NAME,
    accepts: [PING],
    keyless: true,
    async handle({ event, log }) {
      const namespace = deps.config.kcpNamespace;
      const metas = await releaseMetas(namespace);
      const candidates = await candidatesOf(namespace, channelVersionsOf(metas));
      const now = Date.now();
      const outstanding = outstandingWork(candidates, now, deps.config.driftPeriodMinutes);
      const stretch = driftStretch(outstanding, deps.config.resyncMaxEvents);
      const steps = resyncSteps({
        stretch,
        candidates,
        minute: Math.floor(now / 60_000),
        now,
        driftPeriodMinutes: deps.config.driftPeriodMinutes,
        budget: deps.config.resyncMaxEvents,
        metas: metas.map(metaView),
      });
      const counts = await send(steps, namespace, event);
      const awaitingRelease = candidates.filter((c) => c.awaitsRelease && !c.deleting).length;
      const seen = { objects: candidates.length, budget: deps.config.resyncMaxEvents, awaitingRelease, outstanding };
      log.info({ ...counts, ...seen, converging: stretch > 1, driftStretch: stretch }, 'resync events sent');
      return undefined;
    },
  };
}

type Listed = Resource & { metadata: { managedFields?: { manager?: string; time?: string }[] } };

function candidateOf(object: Listed, kind: string, versions: ChannelVersions): Candidate {
  const fields = object.metadata.managedFields ?? [];
  return {
    kind,
    name: object.metadata.name,
    state: (object.status as { state?: string } | undefined)?.state,
    deleting: Boolean(object.metadata.deletionTimestamp),
    lastWrite: newest([object.metadata.creationTimestamp, ...fields.map((f) => f.time)]),
    lastOwnWrite: newest(fields.filter((f) => OUR_MANAGERS.includes(f.manager ?? '')).map((f) => f.time)),
    ...(kind === 'Manifest' && object.metadata.labels?.[LABEL.kymaName]
      ? { slot: object.metadata.labels[LABEL.kymaName] }
      : {}),
    ...(object.metadata.labels?.[LABEL.skipReconciliation] === 'true' ? { skipped: true } : {}),
    ...(kind === 'Kyma' && awaitedReleases(object as Kyma, versions).length ? { awaitsRelease: true } : {}),
    ...(kind === 'Kyma' && (object as Kyma).status?.modules?.some((m) => m.maintenance === true)
      ? { awaitsMaintenance: true }
      : {}),
  };
}

/** The newest of some API server times, ms since the epoch (0 when none). */
function newest(times: readonly (string | undefined)[]): number {
  const parsed = times.map((t) => (t ? Date.parse(t) : NaN)).filter((t) => !Number.isNaN(t));
  return parsed.length ? Math.max(...parsed) : 0;
}
