// A Kyma's drift check when the last one found nothing to do (ADR 93): the same reads, compared by resourceVersion.
import type { Kyma } from '../../shared/core/kyma.ts';
import { remoteKymaRef } from '../../shared/core/runtime-scope.ts';
import { seldomCheckedWithinMs } from '../../shared/core/resync-reasons.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { printOf, type SyncMemo } from '../../shared/kube/sync-memo.ts';
import { catalogVersionsIn, manifestVersions } from '../../shared/kube/versions.ts';
import type { KymaSeen, QuietKymas } from './quiet.ts';
import { lifecycleCrds } from './runtime-sync.ts';

export interface QuietCheck {
  kcp: KubeClient;
  runtimes: RuntimeClients;
  /** The runtime side's pushes (its key: namespace/name) and the Kymas found with nothing to do. */
  pushed: SyncMemo;
  quiet: QuietKymas;
  driftPeriodMs: number;
}

/** The catalog's versions for a Kyma's namespace (ModuleTemplates, ModuleReleaseMetas and the lifecycle CRDs the
 * runtime gets), read from the watch caches without copies. */
export async function catalogVersions(kcp: KubeClient, kyma: Kyma): Promise<KymaSeen['catalog']> {
  return `${await catalogVersionsIn(kcp, kyma.metadata.namespace ?? '')}|${printOf(await lifecycleCrds(kcp))}`;
}

/** True when the Kyma's last drift check found nothing to do and nothing it saw has moved: the Kyma, its Manifests and
 * the catalog on the KCP, the runtime Kyma (read as the mirror reads it), and its runtime side's push still current
 * (ADR 90: the catalog copies are listed every other drift period). Anything else forgets the Kyma. */
export async function unchangedSinceLastCheck(on: QuietCheck, kyma: Kyma): Promise<boolean> {
  const { uid, resourceVersion, name, namespace = '' } = kyma.metadata;
  const access = uid ? await on.runtimes.forKyma(namespace, name).catch(() => undefined) : undefined;
  if (!uid || !access || !('client' in access)) return false;
  const seen = on.quiet.seen(access.client, uid, resourceVersion);
  if (!seen) return false;
  // The push first: when it is due the check runs in full, and what it compares is not read here.
  const within = seldomCheckedWithinMs(on.driftPeriodMs);
  const pushCurrent = on.pushed.known(access.client, `${namespace}/${name}`, Date.now(), within);
  const kcpUnchanged =
    pushCurrent &&
    (await manifestVersions(on.kcp, kyma)) === seen.manifests &&
    (await catalogVersions(on.kcp, kyma)) === seen.catalog;
  const remote = kcpUnchanged
    ? await access.client.get<Kyma>(remoteKymaRef(access.scope), 'any').catch(() => undefined)
    : undefined;
  if (remote && remote.metadata.resourceVersion === seen.runtimeKyma) return true;
  on.quiet.forget(access.client, uid);
  return false;
}
