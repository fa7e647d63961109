import type { Kyma } from '../../shared/core/kyma.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../shared/core/templates.ts';
import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import { API_VERSION, FIELD_MANAGER, LABEL, MANAGED_BY_RUNTIME } from '../../shared/core/vocabulary.ts';
import { applyUnlessCurrent } from '../../shared/kube/apply-current.ts';
import { nudgeUnestablished, type CrdState } from '../../shared/kube/crd-nudge.ts';
import { crdSettled, sharedObjects } from '../../shared/kube/shared-objects.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { Freshness } from '../../shared/kube/types.ts';
import { printOf, type SyncMemo } from '../../shared/kube/sync-memo.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import { ensureRemoteNamespace } from '../../shared/kube/remote-namespace.ts';
import type { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { isRuntimeUnreachable } from '../../shared/host/errors.ts';
import { catalogFor, catalogNeverPushed, type Catalog } from './catalog.ts';
import { pushCatalog } from './catalog-push.ts';
import { inClusterRefusal } from '../../shared/core/in-cluster.ts';
import { catalogDue, type RuntimeSync } from './decide.ts';
import type { Config } from '../../shared/host/config.ts';
import { removeUpstreamWatcher } from './upstream-watcher.ts';
import { markStep } from '../../shared/host/steps.ts';
import { seldomCheckedWithinMs } from '../../shared/core/resync-reasons.ts';
import { pullSecretCopy, type PullSecret } from './pull-secret.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
/** The lifecycle CRDs a runtime gets, in the order they are pushed. */
export const SYNCED_CRDS = ['kymas', 'moduletemplates', 'modulereleasemetas'].map(
  (p) => `${p}.operator.kyma-project.io`,
);
const CRDS_SYNCED = { ok: true, message: `${SYNCED_CRDS.length} CRDs synced to the runtime` } as const;

/** What the runtime side of a Kyma should hold: the lifecycle CRDs, the catalog copies, the image pull Secret. */
interface RuntimeSide {
  crds: RuntimeCrd[];
  catalog: Catalog;
  pullSecret?: PullSecret;
}

/** What a Kyma event's runtime side did: the sync's outcome, the runtime reached, a step still pending, upstream's
 * watcher objects removed. */
export interface SideOutcome {
  sync: RuntimeSync;
  runtime?: { client: KubeClient; scope: RuntimeScope } | undefined;
  pending?: string | undefined;
  upstreamWatcher?: string[] | undefined;
}

/** The runtime side as the aggregation decides on it (decide.ts). */
export const runtimeView = (side: SideOutcome | undefined) =>
  side && {
    sync: side.sync,
    runtime: Boolean(side.runtime),
    pending: side.pending,
    watcherRemoved: Boolean(side.upstreamWatcher),
  };

/** PURE. A runtime side synced again (ADR 82): its outcome, with the upstream watcher objects the first pass removed
 * (the second finds none), so their removal is still reported. */
export const secondPass = (first: SideOutcome, second: SideOutcome): SideOutcome => {
  const removed = [...(first.upstreamWatcher ?? []), ...(second.upstreamWatcher ?? [])];
  return { ...second, ...(removed.length ? { upstreamWatcher: removed } : {}) };
};

/** CRDs, then the module catalog (and the image pull Secret if configured), on the Kyma's runtime; upstream's watcher
 * removed once per instance (ADR 40); an unreachable runtime reported, not thrown. A push of the same objects made
 * recently is reused as `pushReuse` says (`awaiting`: no runtime Kyma yet, pushed whatever was trusted, ADR 74). */
export async function syncRuntime(
  kcp: KubeClient,
  runtimes: RuntimeClients,
  kyma: Kyma,
  memo: SyncMemo,
  force: Freshness | false,
  config: Pick<Config, 'runtimeImagePullSecret' | 'restrictedModules' | 'driftPeriodMinutes'>,
  awaiting = false,
): Promise<SideOutcome> {
  const { name, namespace = '' } = kyma.metadata;
  markStep('sync_context_retrieval');
  const access = await runtimes
    .forKyma(namespace, name)
    .catch((e: unknown) => ({ missing: e instanceof Error ? e.message : String(e) }));
  if ('missing' in access) return { sync: { unreachable: `runtime of Kyma ${name}: ${access.missing}` } };
  const key = `${namespace}/${name}`;
  try {
    if (awaiting) sharedObjects.forgetServer(access.client.server);
    if (!catalogDue(kyma)) return await crdsOnly(kcp, access.client);
    const desired = await desiredRuntimeSide(kcp, kyma, access.scope.namespace, config);
    // Concurrent calls about one Kyma (its add and update events) share one push (ADR 54).
    const reuse = pushReuse(force, awaiting, config.driftPeriodMinutes * 60_000);
    const push = async () => {
      // A runtime no catalog was ever pushed to holds no copy to list, even for a full check (ADR 96).
      const listing = catalogNeverPushed(kyma) ? 'unlisted' : force || 'live';
      const gone = await pushCrdsAndCatalog(access.client, desired, access.scope.namespace, listing);
      if (desired.pullSecret) {
        markStep('image_pull_secret_sync');
        await ensureRemoteNamespace(access.client, access.scope.namespace, true);
        await applyUnlessCurrent(access.client, desired.pullSecret, FIELD_MANAGER.lifecycleManager);
      }
      return gone;
    };
    const removed = (await memo.once(access.client, key, pushedOf(desired), reuse.force, push, reuse.withinMs)) ?? 0;
    const upstreamWatcher = await removeUpstreamWatcher(access.client);
    const catalog = `${desired.catalog.templates.length} ModuleTemplates and ${desired.catalog.metas.length} ModuleReleaseMetas synced${removed ? `, ${removed} copies removed` : ''}`;
    const secret = desired.pullSecret
      ? {
          pullSecret: {
            ok: true,
            message: `image pull Secret ${desired.pullSecret.metadata.name} synced to the runtime`,
          },
        }
      : {};
    return {
      runtime: access,
      sync: {
        crds: CRDS_SYNCED,
        catalog: { ok: true, message: catalog },
        ...secret,
      },
      ...(upstreamWatcher.length ? { upstreamWatcher } : {}),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isRuntimeUnreachable(error)) {
      runtimes.evict(namespace, name);
      return { sync: { unreachable: `runtime of Kyma ${name} unreachable: ${message}` } };
    }
    // The runtime answered but is not ready for it yet (a CRD still being established, 429, 5xx): retried soon.
    const secret = config.runtimeImagePullSecret
      ? { pullSecret: { ok: false, message: `sync pending: ${message}` } }
      : {};
    return {
      runtime: access,
      sync: {
        crds: { ok: false, message: `sync pending: ${message}` },
        catalog: { ok: false, message: `sync pending: ${message}` },
        ...secret,
      },
      pending: message,
    };
  }
}

/** PURE. How a runtime side's push takes this instance's last push of the same objects: a Kyma awaiting its runtime
 * Kyma and a runtime watch's full check (`live`) never; a drift check (`any`) under 1.5 drift periods old, so the catalog
 * copies are listed every other drift check (ADR 90); other events under one drift period old (ADR 17). */
export const pushReuse = (
  force: Freshness | false,
  awaiting: boolean,
  driftPeriodMs: number,
): { force: boolean; withinMs: number } => {
  if (awaiting || force === 'live') return { force: true, withinMs: 0 };
  return { force: false, withinMs: force === 'any' ? seldomCheckedWithinMs(driftPeriodMs) : driftPeriodMs };
};

/** Before resolve-template has created the runtime Kyma and its namespace (ADR 69): the CRDs only, which it needs to
 * create one; the catalog (and image pull Secret) waits for the Kyma's next event, that resolution's status write, its
 * condition left as it was (ADR 78). No mirror: there is no runtime Kyma yet. */
async function crdsOnly(kcp: KubeClient, runtime: KubeClient): Promise<SideOutcome> {
  await pushCrds(runtime, await lifecycleCrds(kcp));
  const upstreamWatcher = await removeUpstreamWatcher(runtime);
  return {
    sync: { crds: CRDS_SYNCED },
    ...(upstreamWatcher.length ? { upstreamWatcher } : {}),
  };
}

/** Single-cluster mode (ADR 21): the control plane's own lifecycle CRDs and catalog serve the Kyma; nothing is synced
 * or mirrored. Refused (the Kyma in Error, saying why) where this control plane does not install into itself. */
export function inClusterSync(enabled: boolean): SideOutcome {
  const refusal = inClusterRefusal(enabled);
  if (refusal) return { sync: { unreachable: refusal } };
  return {
    sync: {
      crds: { ok: true, message: "in-cluster: the control plane's own lifecycle CRDs" },
      catalog: { ok: true, message: "in-cluster: the control plane's own module catalog" },
    },
  };
}

interface RuntimeCrd extends CrdState {
  apiVersion: string;
  kind: string;
  metadata: CrdState['metadata'] & { labels?: Record<string, string> };
  spec: object;
}

async function desiredRuntimeSide(
  kcp: KubeClient,
  kyma: Kyma,
  remoteNamespace: string,
  config: Pick<Config, 'runtimeImagePullSecret' | 'restrictedModules'>,
): Promise<RuntimeSide> {
  const pullSecret = config.runtimeImagePullSecret;
  const crds = await lifecycleCrds(kcp);
  const namespace = kyma.metadata.namespace ?? '';
  // The watch cache's objects themselves, read only (catalogFor copies what it changes): no copy per Kyma check.
  const templates = await kcp.scan(API_VERSION, 'ModuleTemplate', { namespace }, (t: ModuleTemplate) => t);
  const metas = await kcp.scan(API_VERSION, 'ModuleReleaseMeta', { namespace }, (m: ModuleReleaseMeta) => m);
  const catalog = catalogFor(kyma, templates, metas, config.restrictedModules, remoteNamespace);
  return {
    crds,
    catalog,
    ...(pullSecret ? { pullSecret: await pullSecretCopy(kcp, namespace, pullSecret, remoteNamespace) } : {}),
  };
}

/** What a push's fingerprint is taken of (SyncMemo.once): the CRDs and the templates' specs — objects never changed
 * once read — by `printOf`, each hashed once, the rest as it is. */
const pushedOf = (side: RuntimeSide) => ({
  crds: printOf(side.crds),
  templates: side.catalog.templates.map((t) => ({ ...t, spec: t.spec && printOf(t.spec) })),
  metas: side.catalog.metas,
  pullSecret: side.pullSecret,
});

/** How long the KCP's lifecycle CRDs are reused (ADR 18): they change with an upgrade of this project, not per Kyma. */
const CRD_REUSE_MS = 30_000;
const crdsOfKcp = new WeakMap<KubeClient, { at: number; crds: Promise<RuntimeCrd[]> }>();

/** The lifecycle CRDs as the runtimes get them, read from the KCP at most every CRD_REUSE_MS (three GETs). */
export function lifecycleCrds(kcp: KubeClient): Promise<RuntimeCrd[]> {
  const known = crdsOfKcp.get(kcp);
  if (known && Date.now() - known.at < CRD_REUSE_MS) return known.crds;
  const crds = Promise.all(
    SYNCED_CRDS.map(async (name): Promise<RuntimeCrd> => {
      const crd = await kcp.get<{ kind?: string; spec?: Record<string, unknown> }>({ ...CRD, name });
      if (!crd?.spec) throw new Error(`CRD ${name} missing in the KCP`);
      return asRuntimeCrd(name, crd.spec);
    }),
  );
  crdsOfKcp.set(kcp, { at: Date.now(), crds });
  crds.catch(() => crdsOfKcp.delete(kcp));
  return crds;
}

/** PURE. A lifecycle CRD of the KCP (`spec`) as a runtime gets it: conversion None, labelled managed-by=kyma. */
export const asRuntimeCrd = (name: string, spec: object): RuntimeCrd => ({
  ...CRD,
  metadata: { name, labels: { [LABEL.managedBy]: MANAGED_BY_RUNTIME } },
  spec: { ...spec, conversion: { strategy: 'None' } },
});

/** The lifecycle CRDs as the KCP has them, conversion None, label managed-by=kyma (server-side apply, skipped when already so). */
async function pushCrds(runtime: KubeClient, crds: RuntimeCrd[]): Promise<void> {
  markStep('crds_sync');
  // One after another: the catalog's kinds are served only once their CRDs are established, and a busy runtime
  // establishes one while the next is applied (at once, the catalog's first LIST often found them not served yet).
  for (const crd of crds) await pushCrd(runtime, crd);
}

async function pushCrd(runtime: KubeClient, crd: RuntimeCrd): Promise<void> {
  // Every Kyma on this runtime API server shares these CRDs: seen as desired by one call, trusted by the next (ADR 32).
  const applied = await sharedObjects.apply<RuntimeCrd>(runtime, crd, FIELD_MANAGER.lifecycleManager, crdSettled);
  // A CRD left terminating by an earlier Kyma's deletion: wait until it is gone, then it is created afresh.
  if (applied.metadata.deletionTimestamp)
    throw new Error(`CRD ${crd.metadata.name} on the runtime is still being deleted`);
  // Accepted but never established (its API server restarted mid-way): nudged, and the sync is retried.
  if (await nudgeUnestablished(runtime, applied))
    throw new Error(`CRD ${crd.metadata.name} on the runtime was not established: nudged`);
}

/** CRDs, then the catalog (copies listed as `freshness` says, or not at all). A catalog kind the runtime does not serve
 * means its CRDs went since this process last trusted them (another Kyma's deletion removed them, ADR 32): forgotten,
 * pushed again, and the catalog retried once. */
async function pushCrdsAndCatalog(
  runtime: KubeClient,
  desired: RuntimeSide,
  remoteNamespace: string,
  freshness: Freshness | 'unlisted',
): Promise<number> {
  await pushCrds(runtime, desired.crds);
  try {
    return await pushCatalog(runtime, desired.catalog, remoteNamespace, freshness);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    sharedObjects.forgetServer(runtime.server);
    await pushCrds(runtime, desired.crds);
    await ensureRemoteNamespace(runtime, remoteNamespace);
    return pushCatalog(runtime, desired.catalog, remoteNamespace, 'live');
  }
}
