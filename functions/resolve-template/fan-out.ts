import type { Kyma, ModuleStatus } from '../../shared/core/kyma.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import { kindKey } from '../../shared/kube/freshness.ts';
import {
  APISERVER_UPDATE,
  eventAbout,
  LANE,
  LANE_BACKGROUND,
  RESYNC_DUE,
  RESYNC_REASON,
  RESYNC_RELEASE,
  versionIn,
  type EventAttributes,
  type ObjectKey,
} from '../../shared/host/events.ts';
import { releaseNeed } from '../../shared/core/release-spread.ts';
import { releaseToWaitingKymas } from './release.ts';
import { templateName, type ModuleReleaseMeta } from '../../shared/core/templates.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';

/** Kymas that use a changed ModuleTemplate (by template reference, or pinned to its version: a pin waiting for its
 * template resolves as soon as it appears) or ModuleReleaseMeta (by module name). */
export function usesChange(kyma: Kyma, changed: ObjectKey): boolean {
  const entries = kyma.status?.modules ?? [];
  const pinnedTo = (m: ModuleStatus) =>
    m.resolution?.pinned && m.resolution.version ? templateName(m.name, m.resolution.version) : undefined;
  if (changed.kind === 'ModuleTemplate')
    return entries.some((m) => m.template?.metadata.name === changed.name || pinnedTo(m) === changed.name);
  const inSpec = (kyma.spec?.modules ?? []).some((m) => m.name === changed.name);
  return inSpec || entries.some((m) => m.name === changed.name);
}

/** A ModuleTemplate or ModuleReleaseMeta changed: one background `resync.due` (ADR 25) per Kyma that uses it, carrying
 * the change's resourceVersion (ADR 15); a moved MRM channel reaches them within the release budget (ADR 30).
 * Returns the events sent and the Kymas still waiting for the budget. */
export async function fanOut(
  deps: FunctionDeps,
  changed: ObjectKey,
  cause: EventAttributes,
): Promise<{ sent: number; deferred: number }> {
  // The resolving calls read the catalog from their watch caches: no older than the change they are sent for.
  const version = versionIn(cause);
  const seen: Record<string, string> = version
    ? { seenkind: kindKey(changed.apiVersion, changed.kind), seenversion: version }
    : {};
  if (changed.kind === 'ModuleReleaseMeta' && cause.type === RESYNC_DUE && cause[RESYNC_REASON] === RESYNC_RELEASE)
    return releaseToWaitingKymas(deps, changed.namespace, cause, {});
  const kymas = await listAll<Kyma>(deps.kcp, API_VERSION, 'Kyma', { namespace: changed.namespace });
  const everyone = await concernsEveryKyma(deps, changed);
  // Mandatory modules follow spec.mandatory.version on every Kyma, not channels: they are not spread.
  const release = changed.kind === 'ModuleReleaseMeta' && cause.type === APISERVER_UPDATE && !everyone;
  let affected = kymas.filter((k) => everyone || usesChange(k, changed));
  if (release) affected = await unresolvedOf(deps, changed, affected);
  for (const kyma of affected) {
    const key = {
      kind: 'Kyma',
      apiVersion: API_VERSION,
      namespace: kyma.metadata.namespace ?? '',
      name: kyma.metadata.name,
    };
    await deps.sink(eventAbout(RESYNC_DUE, 'resolve-template', key, cause, { ...seen, [LANE]: LANE_BACKGROUND }));
  }
  if (!release) return { sent: affected.length, deferred: 0 };
  const spread = await releaseToWaitingKymas(deps, changed.namespace, cause, seen);
  return { sent: affected.length + spread.sent, deferred: spread.deferred };
}

/** The Kymas among `affected` the change reaches at once (releaseNeed `resolve`): no resolved version of the changed
 * module yet, or its kymaSelector now refuses it. */
async function unresolvedOf(deps: FunctionDeps, changed: ObjectKey, affected: Kyma[]): Promise<Kyma[]> {
  const meta = await deps.kcp.get<ModuleReleaseMeta>({
    apiVersion: API_VERSION,
    kind: 'ModuleReleaseMeta',
    namespace: changed.namespace,
    name: changed.name,
  });
  const module = meta?.spec?.moduleName ?? changed.name;
  return affected.filter((kyma) => releaseNeed(kyma, module, meta, deps.config.restrictedModules) === 'resolve');
}

/** Mandatory modules (and their templates) are installed on every Kyma. */
async function concernsEveryKyma(deps: FunctionDeps, changed: ObjectKey): Promise<boolean> {
  const ref = { apiVersion: API_VERSION, kind: changed.kind, namespace: changed.namespace, name: changed.name };
  const object = await deps.kcp.get<{ kind?: string; spec?: { mandatory?: unknown } }>(ref);
  return Boolean(object?.spec?.mandatory);
}
