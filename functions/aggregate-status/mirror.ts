import { canonicalJson } from '../../shared/core/canonical.ts';
import type { Kyma, KymaStatus } from '../../shared/core/kyma.ts';
import { API_VERSION, FIELD_MANAGER, REMOTE_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import type { SyncMemo } from '../../shared/kube/sync-memo.ts';
import { remoteKymaRef, type RuntimeScope } from '../../shared/core/runtime-scope.ts';


/** PURE. The KCP status as the runtime's Kyma shows it: template refs point at the catalog copies (in kyma-system
 * or the runtime namespace), Manifest refs (KCP-only objects) are left out. */
export function mirroredStatus(status: KymaStatus, namespace = REMOTE_NAMESPACE): KymaStatus {
  const modules = (status.modules ?? []).map((entry) => {
    const m = { ...entry };
    delete m.manifest;
    return m.template ? { ...m, template: { ...m.template, metadata: { ...m.template.metadata, namespace } } } : m;
  });
  return { ...status, modules };
}

/**
 * Copies the status to the runtime's Kyma when it exists, is not being deleted and differs. What this instance
 * mirrored through the client is remembered for `key` (ADR 25): the same status again costs nothing, a changed one
 * is written without reading the runtime Kyma first; `force` (resync events) reads and compares, repairing drift.
 */
export async function mirrorToRuntime(runtime: KubeClient, scope: RuntimeScope, status: KymaStatus, memo: SyncMemo, key: string, force: boolean): Promise<void> {
  const ref = remoteKymaRef(scope);
  const mirrored = mirroredStatus(status, scope.namespace);
  const memoKey = `${key}#status`;
  if (!force && memo.fresh(runtime, memoKey, mirrored)) return;
  if (force || !memo.known(runtime, memoKey)) {
    memo.forget(runtime, memoKey);
    const remote = await runtime.get<Kyma>(ref).catch(() => undefined);
    if (!remote || remote.metadata.deletionTimestamp) return;
    if (canonicalJson(remote.status) === canonicalJson(mirrored)) return memo.remember(runtime, memoKey, mirrored);
  }
  const written = await runtime.apply({ apiVersion: API_VERSION, kind: 'Kyma', metadata: { name: ref.name, namespace: ref.namespace }, status: mirrored }, FIELD_MANAGER.lifecycleManager, 'status')
    .then(() => true, (error: unknown) => { if (isNotFound(error)) return false; throw error; });
  if (written) memo.remember(runtime, memoKey, mirrored);
  else memo.forget(runtime, memoKey);
}
