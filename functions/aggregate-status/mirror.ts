import { canonicalJson } from '../../shared/core/canonical.ts';
import type { Kyma, KymaStatus } from '../../shared/core/kyma.ts';
import { API_VERSION, REMOTE_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import type { SyncMemo } from '../../shared/kube/sync-memo.ts';
import { remoteKymaRef, type RuntimeScope } from '../../shared/core/runtime-scope.ts';

/** PURE. The KCP status as the runtime's Kyma shows it: template refs point at the catalog copies (in kyma-system
 * or the runtime namespace), Manifest refs (KCP-only objects) and the digest of the KCP Kyma's inputs are left out. */
export function mirroredStatus(status: KymaStatus, namespace = REMOTE_NAMESPACE): KymaStatus {
  const modules = (status.modules ?? []).map((entry) => {
    const m = { ...entry };
    delete m.manifest;
    return m.template ? { ...m, template: { ...m.template, metadata: { ...m.template.metadata, namespace } } } : m;
  });
  if (!status.specSource?.inputs) return { ...status, modules };
  const specSource = { ...status.specSource };
  delete specSource.inputs;
  return { ...status, specSource, modules };
}

/** The fields of a Kyma status (a field a status of ours no longer has goes also when the runtime Kyma was not read). */
const STATUS_FIELDS: readonly (keyof KymaStatus)[] = [
  'state',
  'specSource',
  'activeChannel',
  'lastOperation',
  'conditions',
  'modules',
  'lastTrace',
];

/** PURE. A merge patch that makes the runtime Kyma's status exactly `mirrored`: its lists replace the runtime's (as
 * upstream's status update does), and what the runtime has that `mirrored` has not is removed — fields upstream's
 * manager wrote there before a takeover (ADR 40) included, which an apply of ours could not remove. */
export function statusPatch(remote: KymaStatus | undefined, mirrored: KymaStatus): { status: Record<string, unknown> } {
  const gone = [...new Set([...STATUS_FIELDS, ...Object.keys(remote ?? {})])]
    .filter((k) => !(k in mirrored))
    .map((k) => [k, null]);
  return { status: { ...Object.fromEntries(gone), ...mirrored } };
}

/** How a call mirrors: `force` (resync events) reads and compares whatever this instance remembers, repairing drift;
 * `statusWritten` says the status is the one this call wrote on the KCP; `onlyOurs` that the runtime Kyma can hold no
 * status but one of ours (its catalog never pushed, ADR 96). */
export interface MirrorHow {
  force: Freshness | false;
  statusWritten: boolean;
  onlyOurs?: boolean | undefined;
}

/** PURE. What the mirror does before its write (ADR 77): nothing more when this instance mirrored this status lately
 * (`skip`); write unread (`write`) when this call wrote it and the runtime Kyma's last one is known, or that holds no
 * status but ours (ADR 96, a full check's too); else read first, as `force` says or live (another instance wrote it). */
export function mirrorRead(how: MirrorHow, memo: { fresh: boolean; known: boolean }): 'skip' | 'write' | Freshness {
  if (how.onlyOurs) return memo.fresh && !how.force ? 'skip' : 'write';
  if (how.force) return how.force;
  if (memo.fresh) return 'skip';
  return memo.known && how.statusWritten ? 'write' : 'live';
}

/** Copies the status to the runtime's Kyma when it exists, is not being deleted and differs; what this instance
 * mirrored for `key` is remembered (ADR 25), and read back as `mirrorRead` decides. Answers the runtime Kyma's
 * resourceVersion when it was read and found so, or written (ADR 93). */
export async function mirrorToRuntime(
  runtime: KubeClient,
  scope: RuntimeScope,
  status: KymaStatus,
  memo: SyncMemo,
  key: string,
  how: MirrorHow,
): Promise<string | undefined> {
  const ref = remoteKymaRef(scope);
  const mirrored = mirroredStatus(status, scope.namespace);
  const memoKey = `${key}#status`;
  const read = mirrorRead(how, {
    fresh: memo.fresh(runtime, memoKey, mirrored),
    known: memo.known(runtime, memoKey),
  });
  if (read === 'skip') return undefined;
  let remote: Kyma | undefined;
  if (read !== 'write') {
    memo.forget(runtime, memoKey);
    remote = await runtime.get<Kyma>(ref, read).catch(() => undefined);
    if (!remote || remote.metadata.deletionTimestamp) return undefined;
    if (canonicalJson(remote.status) === canonicalJson(mirrored)) {
      memo.remember(runtime, memoKey, mirrored);
      return remote.metadata.resourceVersion;
    }
  }
  const written = await runtime
    .mergePatch<Kyma>({ ...ref, apiVersion: API_VERSION }, statusPatch(remote?.status, mirrored), 'status')
    .catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
  if (written) memo.remember(runtime, memoKey, mirrored);
  else memo.forget(runtime, memoKey);
  return written?.metadata.resourceVersion;
}
