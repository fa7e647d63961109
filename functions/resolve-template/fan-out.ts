import type { Kyma } from '../../shared/domain/kyma.ts';
import { API_VERSION } from '../../shared/domain/vocabulary.ts';
import { listAll } from '../../shared/k8s/list.ts';
import { kindKey } from '../../shared/k8s/freshness.ts';
import { eventAbout, LANE, LANE_BACKGROUND, RESYNC_DUE, versionIn, type EventAttributes, type ObjectKey } from '../../shared/runtime/events.ts';
import type { FunctionDeps } from '../../shared/runtime/deps.ts';

/** Kymas that use a changed ModuleTemplate (by template reference) or ModuleReleaseMeta (by module name). */
export function usesChange(kyma: Kyma, changed: ObjectKey): boolean {
  const entries = kyma.status?.modules ?? [];
  if (changed.kind === 'ModuleTemplate') return entries.some((m) => m.template?.metadata.name === changed.name);
  const inSpec = (kyma.spec?.modules ?? []).some((m) => m.name === changed.name);
  return inSpec || entries.some((m) => m.name === changed.name);
}

/**
 * A ModuleTemplate or ModuleReleaseMeta changed: send one background `resync.due` event (ADR 25) per Kyma that uses it to the broker
 * ingress (a reply can carry only one event). For a template that nobody references yet (a new version), the
 * MRM change that points at it triggers the Kymas; each event carries the change's resourceVersion (`seenkind`,
 * `seenversion`). Returns the number of events sent.
 */
export async function fanOut(deps: FunctionDeps, changed: ObjectKey, cause: EventAttributes): Promise<number> {
  const kymas = await listAll<Kyma>(deps.kcp, API_VERSION, 'Kyma', { namespace: changed.namespace });
  const everyone = await concernsEveryKyma(deps, changed);
  const affected = kymas.filter((k) => everyone || usesChange(k, changed));
  // The resolving calls read the catalog from their watch caches: no older than the change they are sent for.
  const version = versionIn(cause);
  const seen = version ? { seenkind: kindKey(changed.apiVersion, changed.kind), seenversion: version } : {};
  for (const kyma of affected) {
    const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace: kyma.metadata.namespace ?? '', name: kyma.metadata.name };
    await deps.sink(eventAbout(RESYNC_DUE, 'resolve-template', key, cause, { ...seen, [LANE]: LANE_BACKGROUND }));
  }
  return affected.length;
}

/** Mandatory modules (and their templates) are installed on every Kyma. */
async function concernsEveryKyma(deps: FunctionDeps, changed: ObjectKey): Promise<boolean> {
  const ref = { apiVersion: API_VERSION, kind: changed.kind, namespace: changed.namespace, name: changed.name };
  const object = await deps.kcp.get<{ kind?: string; spec?: { mandatory?: unknown } }>(ref);
  return Boolean(object?.spec?.mandatory);
}
