import type { Kyma, KymaSpec } from '../../shared/core/kyma.ts';
import { ANNOTATION, API_VERSION, LABEL, MANAGED_BY_RUNTIME } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { isConflict, isNotFound } from '../../shared/kube/errors.ts';
import { remoteKymaRef, type RuntimeScope } from '../../shared/core/runtime-scope.ts';
import { ensureRemoteNamespace, SYNC_CONTEXT_MANAGER } from '../../shared/kube/remote-namespace.ts';
import { involvedOf, type EventRecorder } from '../../shared/kube/events.ts';
import { failedWriteEvent } from '../../shared/core/state-events.ts';
import { isRuntimeUnreachable, NotYetReadyError } from '../../shared/host/errors.ts';
import { markStep } from '../../shared/host/steps.ts';

const KYMA_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: 'kymas.operator.kyma-project.io',
};
const COPIED_LABELS = [
  'kyma-project.io/runtime-id',
  'kyma-project.io/global-account-id',
  'kyma-project.io/subaccount-id',
];

/** Where the module list of a Kyma comes from this time. */
export interface EffectiveSpec {
  spec: KymaSpec;
  from: 'runtime' | 'kcp';
  /** The runtime Kyma as read (or as its metadata was just written), when it exists. */
  remote?: Kyma | undefined;
  /** The Kyma turned out to be gone or being deleted when the runtime Kyma was about to be created: nothing to do. */
  gone?: true;
  /** This call created the runtime Kyma (and, when `gone`, deleted it again). */
  created?: true;
  /** The runtime Kyma was not read: it came from this instance's memory (remote-memo.ts, ADR 43). */
  remembered?: true;
}

/** Whether the KCP Kyma still exists and is not being deleted, read live (not from a watch cache). */
export type StillWanted = () => Promise<boolean>;
/** Whether the KCP Kyma `namespace/name` exists, read live. */
export type KymaExists = (owner: string) => Promise<boolean>;

/** The runtime's Kyma `kyma-system/default` (`<runtime namespace>/default` on a shared runtime) is the user's entry
 * point (ADR 9): created once from the KCP spec, then its spec counts (the KCP spec while the runtime has no Kyma CRD);
 * created only once `stillWanted` confirms the Kyma live, and deleted again if it does not right after (ADR 35). */
export async function effectiveSpec(
  runtime: KubeClient,
  kyma: Kyma,
  scope: RuntimeScope,
  stillWanted: StillWanted,
  recalled: Kyma | undefined,
  exists: KymaExists,
  events?: EventRecorder,
  { freshness, existing }: { freshness: Freshness; existing?: true } = { freshness: 'live' },
): Promise<EffectiveSpec> {
  markStep('spec_replacement_from_remote');
  const kcpSpec = { from: 'kcp' as const, spec: kyma.spec ?? { channel: '' } };
  // Whether the runtime serves Kymas, from discovery (read again only while it does not): no read of the CRD. A Kyma
  // `recalled` as read by an earlier call (remote-memo.ts) needs no read at all.
  if (!recalled && !(await servesKymas(runtime))) return withoutServedKymas(runtime, kcpSpec);
  // A Kyma no manager has reported on yet most likely has no runtime Kyma: created unread, read only if it exists (ADR 85).
  const unread = !recalled && !existing && firstContact(kyma);
  let remote = recalled ?? (unread ? undefined : await runtime.get<Kyma>(remoteKymaRef(scope), freshness));
  // Left by another Kyma that is gone (ADR 35): not inherited. Deleted, and this Kyma's own is created from its spec.
  if (remote && (await leftByAGoneKyma(remote, kyma, exists))) {
    await runtime.delete(remoteKymaRef(scope));
    remote = undefined;
  }
  if (!remote) {
    if (!(await stillWanted())) return { ...kcpSpec, gone: true };
    const made = await createRemote(runtime, kyma, scope);
    if (made === UNSERVED) return withoutServedKymas(runtime, kcpSpec);
    // Confirmed again after the create: a deletion that finished in between (purge found no runtime Kyma to delete)
    // would otherwise leave behind the one this call made — only that one (by uid): one that existed already may be
    // the runtime's next Kyma's.
    if (!(await stillWanted())) {
      if (made) await deleteOwn(runtime, scope, made);
      return { ...kcpSpec, ...(made ? { created: true as const } : {}), gone: true };
    }
    // Created unread and refused (ADR 85): one exists; read, it goes on as every later contact.
    const again = { freshness: 'live' as const, existing: true as const };
    if (!made && unread) return effectiveSpec(runtime, kyma, scope, stillWanted, recalled, exists, events, again);
    return { ...kcpSpec, ...(made ? { created: true as const, remote: made } : {}), from: 'runtime' };
  }
  const current = await syncMetadata(runtime, kyma, remote, scope).catch(async (error: unknown) => {
    if (!isRuntimeUnreachable(error))
      await events?.record(involvedOf(kyma), failedWriteEvent('MetadataSynchronization', error));
    throw error;
  });
  return {
    from: 'runtime',
    remote: current,
    spec: {
      ...kcpSpec.spec,
      channel: remote.spec?.channel ?? kcpSpec.spec.channel,
      modules: remote.spec?.modules ?? [],
    },
  };
}

/** PURE. No manager has written the Kyma's status yet (no state, no resolution): its runtime Kyma is most likely
 * still to be created (ADR 85). A stale read that misses a status costs a refused create and the read after it. */
export const firstContact = (kyma: Kyma): boolean => !kyma.status?.state && !kyma.status?.specSource;

/** Deletes the runtime Kyma this call created, unless it has been replaced meanwhile (409: another object by now). */
async function deleteOwn(runtime: KubeClient, scope: RuntimeScope, made: Kyma): Promise<void> {
  await runtime.delete(remoteKymaRef(scope), 'Background', { uid: made.metadata.uid }).catch((e: unknown) => {
    if (!isConflict(e)) throw e;
  });
}

/** PURE but for `exists`: the runtime Kyma names another KCP Kyma as its owner, and that Kyma no longer exists. */
async function leftByAGoneKyma(remote: Kyma, kyma: Kyma, exists: KymaExists): Promise<boolean> {
  const owner = remote.metadata.annotations?.[ANNOTATION.ownedBy];
  const self = `${kyma.metadata.namespace ?? ''}/${kyma.metadata.name}`;
  return Boolean(owner && owner !== self && !(await exists(owner)));
}

function metadataOf(kyma: Kyma): { labels: Record<string, string>; annotations: Record<string, string> } {
  const labels: Record<string, string> = {
    [LABEL.managedBy]: MANAGED_BY_RUNTIME,
    'operator.kyma-project.io/watched-by': MANAGED_BY_RUNTIME,
  };
  for (const key of COPIED_LABELS) if (kyma.metadata.labels?.[key]) labels[key] = kyma.metadata.labels[key];
  return { labels, annotations: { [ANNOTATION.ownedBy]: `${kyma.metadata.namespace ?? ''}/${kyma.metadata.name}` } };
}

/** The runtime does not serve Kymas although discovery listed the kind a moment ago. */
const UNSERVED = 'unserved';

/** Whether discovery lists the Kyma kind on the runtime (re-read while it does not: a CRD established since). */
function servesKymas(runtime: KubeClient): Promise<boolean> {
  return runtime.resource(API_VERSION, 'Kyma').then(
    () => true,
    (e: unknown) => {
      if (isNotFound(e)) return false;
      throw e;
    },
  );
}

/** The runtime serves no Kymas: the KCP spec counts while it has no Kyma CRD; one it has but does not serve yet (just
 * created, not yet established) is waited for (503, retried), else its runtime Kyma would wait for the next event. */
async function withoutServedKymas(runtime: KubeClient, kcpSpec: EffectiveSpec): Promise<EffectiveSpec> {
  if (!(await runtime.get(KYMA_CRD))) return kcpSpec;
  throw new NotYetReadyError("the runtime's Kyma CRD is not served yet", 'spec_replacement_from_remote');
}

/** The runtime Kyma as created; undefined when it existed already. The namespace is applied, not read first: this is
 * a Kyma's first contact with its runtime, where it is most often missing. */
async function createRemote(
  runtime: KubeClient,
  kyma: Kyma,
  scope: RuntimeScope,
): Promise<Kyma | undefined | typeof UNSERVED> {
  await ensureRemoteNamespace(runtime, scope.namespace);
  const spec = { channel: kyma.spec?.channel ?? '', modules: kyma.spec?.modules ?? [] };
  const { name, namespace } = remoteKymaRef(scope);
  // Created as kyma-sync-context: the runtime watch tells this creation from a user's edit by that field manager (ADR 28).
  return runtime
    .create<Kyma>(
      { apiVersion: API_VERSION, kind: 'Kyma', metadata: { name, namespace, ...metadataOf(kyma) }, spec } as Kyma,
      false,
      SYNC_CONTEXT_MANAGER,
    )
    .catch((e: unknown) => {
      // The namespace was applied just now: a 404 is the kind, gone (or not yet served) since discovery was read.
      if (isNotFound(e)) return UNSERVED;
      if (!isConflict(e)) throw e;
      return undefined;
    });
}

/** Labels and the owned-by annotation, applied as kyma-sync-context only when they differ; the runtime Kyma as it is
 * then (undefined: gone meanwhile). */
async function syncMetadata(
  runtime: KubeClient,
  kyma: Kyma,
  remote: Kyma,
  scope: RuntimeScope,
): Promise<Kyma | undefined> {
  const wanted = metadataOf(kyma);
  const same =
    Object.entries(wanted.labels).every(([k, v]) => remote.metadata.labels?.[k] === v) &&
    Object.entries(wanted.annotations).every(([k, v]) => remote.metadata.annotations?.[k] === v);
  if (same) return remote;
  const { name, namespace } = remoteKymaRef(scope);
  return runtime
    .apply<Kyma>(
      { apiVersion: API_VERSION, kind: 'Kyma', metadata: { name, namespace, ...wanted } } as Kyma,
      SYNC_CONTEXT_MANAGER,
    )
    .catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
      return undefined;
    });
}
