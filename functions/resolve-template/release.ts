import type { Kyma } from '../../shared/core/kyma.ts';
import { awaitedReleases, channelVersionsOf, pickReleases } from '../../shared/core/release-spread.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import { runtimeServersOf } from '../../shared/kube/runtime-servers.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import {
  eventAbout,
  LANE,
  LANE_BACKGROUND,
  RESYNC_DUE,
  RESYNC_REASON,
  RESYNC_RELEASE,
  type EventAttributes,
} from '../../shared/host/events.ts';

/** Spread releases (ADR 30): the Kymas of `namespace` a moved channel has not reached yet get a `release` event, at
 * most the release budget's worth in pickReleases' order; the rest wait. Called on a ModuleReleaseMeta update and on
 * the resync's `release` tick; who waits is read from the Kyma status. */
export async function releaseToWaitingKymas(
  deps: FunctionDeps,
  namespace: string,
  cause: EventAttributes,
  extra: Record<string, string>,
): Promise<{ sent: number; deferred: number }> {
  const metas = await listAll<ModuleReleaseMeta>(deps.kcp, API_VERSION, 'ModuleReleaseMeta', { namespace });
  const versions = channelVersionsOf(metas);
  const kymas = await listAll<Kyma>(deps.kcp, API_VERSION, 'Kyma', { namespace });
  const waiting = kymas.filter((k) => !k.metadata.deletionTimestamp && awaitedReleases(k, versions).length > 0);
  if (waiting.length === 0) return { sent: 0, deferred: 0 };
  const servers = await runtimeServersOf(deps.kcp, namespace);
  const name = (kyma: Kyma) => kyma.metadata.name;
  const picked = pickReleases(
    waiting.map((kyma) => ({ name: name(kyma), runtime: servers.get(name(kyma)) ?? `kyma:${name(kyma)}`, kyma })),
    deps.config.releaseBudget,
  );
  for (const { kyma } of picked.now) {
    const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace, name: name(kyma) };
    await deps.sink(
      eventAbout(RESYNC_DUE, 'resolve-template', key, cause, {
        ...extra,
        [LANE]: LANE_BACKGROUND,
        [RESYNC_REASON]: RESYNC_RELEASE,
      }),
    );
  }
  return { sent: picked.now.length, deferred: picked.later };
}
