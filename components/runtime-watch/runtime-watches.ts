import type { CloudEvent } from 'cloudevents';
import { scopeOfSecret, type RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import { specAsWeCreatedIt } from './spec-writer.ts';
import { SYNC_CONTEXT_MANAGER } from '../../shared/kube/remote-namespace.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { ExecAllowed } from '../../shared/kube/exec-allowlist.ts';
import { KubeconfigRefusedError } from '../../shared/kube/kubeconfig-policy.ts';
import { sharedRuntimeClient } from '../../shared/kube/runtime-clients.ts';
import { ResourceWatch } from '../../shared/kube/resource-watch.ts';
import { CACHED } from '../../shared/host/deps.ts';
import { eventAbout, LANE, LANE_USER, RESYNC_DUE, type ObjectKey } from '../../shared/host/events.ts';
import type { Logger } from '../../shared/host/logger.ts';

interface Secret {
  metadata: {
    name: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
}

export interface RuntimeWatchesOptions {
  kcp: KubeClient;
  namespace: string;
  sink: (event: CloudEvent<unknown>) => Promise<void>;
  log: Logger;
  /** Exec credential plugins a runtime kubeconfig may run: command, exact arguments, env names (LIFECYCLE_KUBECONFIG_EXEC_COMMANDS, LIFECYCLE_KUBECONFIG_EXEC_ENV). */
  execCommands?: ExecAllowed;
  /** How often the kubeconfig Secrets are re-read (default 5 s). */
  pollMs?: number;
  /** The client's watch caches are shared with others in the process (the functions'): `stop` leaves them running. */
  sharedCaches?: boolean;
}

/** A change on a runtime: a user-lane `resync.due` for its Kyma (ADR 25). */
const userResyncOf = (key: ObjectKey) => eventAbout(RESYNC_DUE, 'runtime-watch', key, undefined, { [LANE]: LANE_USER });

/** Runtime → KCP change events (ADR 9): one watch per runtime on its Kyma; a spec change, creation or deletion becomes
 * a user-lane `resync.due` (ADR 25) for the KCP Kyma unless its spec is as resolve-template created it (ADR 28).
 * Runtimes come from the kubeconfig Secrets, re-read every few seconds; a Secret's change sends a `resync.due` too. */
export class RuntimeWatches {
  private readonly options: RuntimeWatchesOptions;
  private readonly watches = new Map<string, { version: string; watch: ResourceWatch; release: () => void }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The Secret cache's resourceVersion at the last refresh. */
  private refreshedAt = '';
  /** Kyma → its kubeconfig Secret's resourceVersion at the last refresh (undefined before the first). */
  private secretVersions: Map<string, string> | undefined;
  /** Kubeconfig Secrets whose Kyma does not exist (yet): their runtime is watched once it does (ADR 46). */
  private readonly awaiting = new Map<string, Secret>();
  /** The Kyma cache's resourceVersion when `awaiting` was last checked. */
  private kymasCheckedAt = '';

  /** The kubeconfig Secrets and the Kymas come from watch caches (ADR 15): polling them is a read of memory. */
  private readonly kcp: KubeClient;

  constructor(options: RuntimeWatchesOptions) {
    this.options = options;
    this.kcp = options.kcp.cachingReads([CACHED.kubeconfigs, CACHED.kymas]);
  }

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(
      () =>
        void this.refresh().catch((e: unknown) =>
          this.options.log.warn({ err: String(e) }, 'runtime watches: refresh failed'),
        ),
      this.options.pollMs ?? 5_000,
    );
  }

  /** True once the watch on `kyma`'s runtime is open: a change on that runtime from then on produces an event. */
  async watching(kyma: string): Promise<boolean> {
    const watch = this.watches.get(kyma);
    if (!watch) return false;
    return Promise.race([
      watch.watch.established.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((done) => setTimeout(done, 100, false)),
    ]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.all([...this.watches.values()].map((w) => w.watch.stop().finally(w.release)));
    this.watches.clear();
    if (!this.options.sharedCaches) this.options.kcp.stopCaches();
  }

  /** One refresh at a time: a slow one (clients being made) is not overtaken by the next tick. */
  private refreshing: Promise<void> | undefined;

  private refresh(): Promise<void> {
    this.refreshing ??= this.refreshNow().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refreshNow(): Promise<void> {
    const { namespace } = this.options;
    // Unchanged Secrets (the cache has not moved): nothing to do but the runtimes whose Kyma has appeared meanwhile,
    // and no copy of thousands of kubeconfigs.
    const revision = this.kcp.cachedRevision('v1', 'Secret', namespace);
    if (revision && revision === this.refreshedAt) return this.watchAwaited();
    const secrets = (await this.kcp.list<Secret>('v1', 'Secret', { namespace, labelSelector: LABEL.kymaName })).items;
    const current = new Map(secrets.map((s) => [s.metadata.labels?.[LABEL.kymaName] ?? '', s]));
    await this.announceSecretChanges(current);
    for (const [kyma, watch] of this.watches) {
      if (current.get(kyma)?.metadata.resourceVersion !== watch.version) {
        this.watches.delete(kyma);
        await watch.watch.stop().finally(watch.release);
      }
    }
    this.awaiting.clear();
    this.kymasCheckedAt = this.kcp.cachedRevision(API_VERSION, 'Kyma', namespace);
    const kymas = await this.kymaNames();
    for (const [kyma, secret] of current) {
      if (this.stopped || !kyma || this.watches.has(kyma) || !secret.data?.config) continue;
      if (kymas.has(kyma)) await this.watch(kyma, secret);
      else this.awaiting.set(kyma, secret);
    }
    this.refreshedAt = revision;
  }

  /** Runtimes whose Kyma did not exist at the last look: watched once it does, checked when the Kymas moved. */
  private async watchAwaited(): Promise<void> {
    const revision = this.kcp.cachedRevision(API_VERSION, 'Kyma', this.options.namespace);
    if (!this.awaiting.size || (revision && revision === this.kymasCheckedAt)) return;
    this.kymasCheckedAt = revision;
    const kymas = await this.kymaNames();
    for (const [kyma, secret] of this.awaiting) {
      if (this.stopped || !kymas.has(kyma)) continue;
      this.awaiting.delete(kyma);
      await this.watch(kyma, secret);
    }
  }

  /** The Kymas that exist, by name, read from the cache in one pass without copying them. A runtime is watched only
   * once its Kyma exists: before that, nobody's change there has a Kyma to go to. */
  private async kymaNames(): Promise<Set<string>> {
    const names = await this.kcp
      .scan<{ metadata: { name: string } }, string>(
        API_VERSION,
        'Kyma',
        { namespace: this.options.namespace },
        (k) => k.metadata.name,
      )
      .catch(() => [] as string[]);
    return new Set(names);
  }

  private async watch(kyma: string, secret: Secret): Promise<void> {
    const watch = await this.watchRuntime(kyma, secret);
    if (watch && this.stopped) await watch.watch.stop().finally(watch.release);
    else if (watch) this.watches.set(kyma, { version: secret.metadata.resourceVersion ?? '', ...watch });
  }

  /** A kubeconfig Secret that appeared, changed or went away since the last refresh (not at start: the resync covers
   * what existed) → a `resync.due` for its Kyma, so it is worked on within seconds. */
  private async announceSecretChanges(current: ReadonlyMap<string, Secret>): Promise<void> {
    const primed = this.secretVersions !== undefined;
    const previous = this.secretVersions ?? new Map<string, string>();
    const now = new Map([...current].map(([kyma, s]) => [kyma, s.metadata.resourceVersion ?? '']));
    this.secretVersions = now;
    if (!primed) return;
    const changed = [...now]
      .filter(([kyma, version]) => previous.has(kyma) && previous.get(kyma) !== version)
      .map(([kyma]) => kyma);
    const removed = [...previous.keys()].filter((kyma) => !now.has(kyma));
    const added = [...now.keys()].filter((kyma) => !previous.has(kyma));
    for (const kyma of [...changed, ...removed, ...(await this.waitingFor(added, current))]) {
      if (!kyma) continue;
      const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace: this.options.namespace, name: kyma };
      await this.options
        .sink(eventAbout(RESYNC_DUE, 'runtime-watch', key, undefined))
        .catch((e: unknown) =>
          this.options.log.warn(
            { kyma, err: String(e) },
            'runtime watches: could not announce a changed kubeconfig Secret',
          ),
        );
    }
  }

  /** The Kymas among `kymas` that existed before their new kubeconfig Secret: they were waiting for it. (A Kyma
   * created after its Secret, as provisioning usually does it, is worked on through its own creation event.) */
  private async waitingFor(kymas: readonly string[], secrets: ReadonlyMap<string, Secret>): Promise<string[]> {
    const waiting: string[] = [];
    for (const kyma of kymas) {
      const found = await this.kcp
        .get<{ metadata: { name: string; creationTimestamp?: string } }>({
          apiVersion: API_VERSION,
          kind: 'Kyma',
          namespace: this.options.namespace,
          name: kyma,
        })
        .catch(() => undefined);
      const kymaBorn = Date.parse(found?.metadata.creationTimestamp ?? '');
      const secretBorn = Date.parse(secrets.get(kyma)?.metadata.creationTimestamp ?? '');
      if (kymaBorn < secretBorn) waiting.push(kyma);
    }
    return waiting;
  }

  /** The watch of `kyma`'s runtime, over the process's client of its kubeconfig (shared with the functions when they
   * run in this process), and how to let that client go. */
  private async watchRuntime(
    kyma: string,
    secret: Secret,
  ): Promise<{ watch: ResourceWatch; release: () => void } | undefined> {
    let scope: RuntimeScope;
    let shared: Awaited<ReturnType<typeof sharedRuntimeClient>>;
    try {
      scope = scopeOfSecret(secret.metadata.name, secret.metadata.annotations);
      shared = await sharedRuntimeClient(
        secret.data?.config ?? '',
        `runtime-watch/${kyma}`,
        this.options.execCommands ?? [],
      );
    } catch (error) {
      const why = error instanceof KubeconfigRefusedError ? `is refused: ${error.message}` : 'is not usable';
      this.options.log.warn({ kyma }, `runtime watches: the kubeconfig Secret of Kyma ${kyma} ${why}`);
      return undefined;
    }
    const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace: this.options.namespace, name: kyma };
    let generation = -1;
    const watch = new ResourceWatch({
      onUnserved: () => void this.kindGone(key),
      client: shared.client,
      source: shared.client.server,
      log: this.options.log,
      announceExisting: true,
      resource: { apiVersion: API_VERSION, kind: 'Kyma', namespace: scope.namespace },
      sink: async (event) => {
        const seen = (event.data as { metadata?: { generation?: number; name?: string } } | undefined)?.metadata;
        if (seen?.name !== 'default' || (event.type.endsWith('.update') && seen.generation === generation)) return;
        generation = seen.generation ?? -1;
        // The runtime Kyma as resolve-template created it is no user's change (ADR 28); a deletion always is.
        if (!event.type.endsWith('.delete') && specAsWeCreatedIt(event.data, [SYNC_CONTEXT_MANAGER])) return;
        await this.options.sink(userResyncOf(key));
      },
    });
    watch.start();
    return { watch, release: shared.release };
  }

  /** The runtime serves no Kymas while its Kyma's module list is said to come from the runtime Kyma: the Kyma CRD went,
   * the runtime Kyma with it, maybe before the watch ever saw it. The Kyma is worked on now (ADR 75). */
  private async kindGone(key: ObjectKey): Promise<void> {
    const kyma = await this.kcp.get<Kyma>(key).catch(() => undefined);
    if (kyma?.status?.specSource?.from !== 'runtime') return;
    await this.options
      .sink(userResyncOf(key))
      .catch((e: unknown) =>
        this.options.log.warn(
          { kyma: key.name, err: String(e) },
          'runtime watches: could not announce a gone Kyma CRD',
        ),
      );
  }
}
