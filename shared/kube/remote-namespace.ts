import { API_VERSION, LABEL, MANAGED_BY_RUNTIME, REMOTE_NAMESPACE } from '../core/vocabulary.ts';
import { applyUnlessCurrent } from './apply-current.ts';
import type { KubeClient } from './client.ts';
import type { Freshness } from './types.ts';
import { PerClientMemo } from './per-client.ts';
import { SyncMemo } from './sync-memo.ts';

/** Field manager upstream uses for the runtime's kyma-system namespace and the remote Kyma's metadata. */
export const SYNC_CONTEXT_MANAGER = 'kyma-sync-context';

/** The runtime's Kyma, the user's entry point on the runtime (always `kyma-system/default`, as upstream). */
export const REMOTE_KYMA = { apiVersion: API_VERSION, kind: 'Kyma', namespace: REMOTE_NAMESPACE, name: 'default' };

/** How long a namespace ensured through a runtime client is taken as there by callers that `reuse` (ADR 27). */
const ENSURED_MS = 5 * 60_000;
const ensured = new SyncMemo(ENSURED_MS);
/** Namespaces a full check read and ensured through a client, and when. */
const checked = new PerClientMemo<true>(ENSURED_MS);

/** Ensures `kyma-system` (or the Kyma's runtime namespace, ADR 13) with the upstream labels, never pruned. `reuse`:
 * trusted for five minutes once ensured through the client, else read and applied unless so (ADR 27); without, applied
 * unread, for callers that expect it missing (ADR 69). After a failed apply into it: `forgetRemoteNamespace`. */
export async function ensureRemoteNamespace(
  runtime: KubeClient,
  namespace = REMOTE_NAMESPACE,
  reuse = false,
): Promise<void> {
  // Calls that come while it is being ensured (a Kyma's Manifests start together) wait for that one (ADR 54).
  await ensured.once(runtime, namespace, namespace, !reuse, () =>
    ensureNamespace(runtime, namespace, reuse ? 'live' : null),
  );
}

/** A full check's ensure: the namespace is read (the resync's drift checks: `any` version, ADR 76) and repaired unless
 * another full check did so through this client in the last `recheckMs` (five minutes unless given): once per drift
 * period or less often (ADR 90), not once per Manifest (ADR 56). */
export async function checkRemoteNamespace(
  runtime: KubeClient,
  namespace = REMOTE_NAMESPACE,
  freshness: Freshness = 'live',
  recheckMs = ENSURED_MS,
): Promise<void> {
  const force = checked.get(runtime, namespace, Date.now(), recheckMs) === undefined;
  const check = async () => {
    await ensureNamespace(runtime, namespace, freshness);
    if (force) checked.set(runtime, namespace, true);
  };
  await ensured.once(runtime, namespace, namespace, force, check, recheckMs);
}

/** The namespace with the upstream labels, applied unless already so: read as `read` says (null: applied unread). */
function ensureNamespace(runtime: KubeClient, namespace: string, read: Freshness | null): Promise<unknown> {
  return applyUnlessCurrent(
    runtime,
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: namespace,
        labels: {
          [LABEL.managedBy]: MANAGED_BY_RUNTIME,
          'istio-injection': 'enabled',
          'namespaces.warden.kyma-project.io/validate': 'enabled',
        },
      },
    },
    SYNC_CONTEXT_MANAGER,
    read === null ? null : undefined,
    read ?? 'live',
  );
}

/** The namespace is checked again at the next `ensureRemoteNamespace` (an apply into it failed). */
export function forgetRemoteNamespace(runtime: KubeClient, namespace = REMOTE_NAMESPACE): void {
  ensured.forget(runtime, namespace);
  checked.delete(runtime, namespace);
}
