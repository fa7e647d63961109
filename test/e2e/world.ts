// The e2e world: KCP with CRDs and kcp-system, runtimes, registry, a local runner, and helpers to wait for states.
import type { KubeConfig } from '@kubernetes/client-node';
import type { CloudEvent } from 'cloudevents';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { ANNOTATION, API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { REMOTE_KYMA } from '../../shared/kube/remote-namespace.ts';
import { installCrds } from '../../local/controlplane/crds.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { readConfig } from '../../shared/host/config.ts';
import { PING } from '../../shared/host/events.ts';
import { startLocalRunner, type LocalRunner } from '../../local/runner/local-runner.ts';
import { capturingLogger, statusRecorder } from './capture.ts';

export interface World {
  kcp: KubeClient;
  runtimes: KubeClient[];
  runtimeKubeconfigs: string[];
  registry: RegistryClient;
  runner: LocalRunner;
  events: CloudEvent<unknown>[];
  /** The runtime each Kyma was connected to (by connectRuntime). */
  kymaRuntime: Map<string, KubeClient>;
  /** Every log line of the world's components (JSON lines, all levels). */
  logFile: string;
}

export interface WorldOptions {
  /** Another KCP than the shared one (admin kubeconfig), e.g. one with an audit log. */
  kcp?: string;
  /** The identity each component acts as (see LocalRunnerOptions.identity). */
  identity?: (component: string) => Promise<KubeConfig>;
  /** Runs with the KCP admin client before the functions start (e.g. Secrets they read at start). */
  beforeRunner?: (kcp: KubeClient) => Promise<void>;
}

export async function startWorld(env: Record<string, string> = {}, opts: WorldOptions = {}): Promise<World> {
  const cp = inject('controlPlane');
  const kcpConfig: KubeConfig = loadKubeConfig(opts.kcp ?? cp.kcp);
  await installCrds(kcpConfig);
  const kcp = await KubeClient.from(kcpConfig);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } }).catch(() => undefined);
  const runtimes = await Promise.all(cp.runtimes.map((k) => KubeClient.from(loadKubeConfig(k))));
  const registry = new RegistryClient({ host: cp.registryHost, plainHttp: true });
  const config = {
    ...readConfig({
      LIFECYCLE_OCI_REGISTRY: `http://${cp.registryHost}`,
      LIFECYCLE_HELM_BINARY: `${cp.binDir}/helm`,
      PATH: '/usr/bin:/bin',
      ...env,
    }),
  };
  await opts.beforeRunner?.(kcp);
  const events: CloudEvent<unknown>[] = [];
  const { log, file: logFile } = capturingLogger('e2e', process.env.E2E_LOG_LEVEL ?? 'warn');
  const recordStatus = statusRecorder();
  const runner = await startLocalRunner({
    kcp: kcpConfig,
    config,
    log,
    onSourceEvent: (e) => {
      events.push(e);
      recordStatus(e);
    },
    ...(opts.identity ? { identity: opts.identity } : {}),
  });
  return { kcp, runtimes, runtimeKubeconfigs: cp.runtimes, registry, runner, events, kymaRuntime: new Map(), logFile };
}

/** The kubeconfig Secret of a Kyma, pointing at a runtime. */
export async function connectRuntime(world: World, kymaName: string, runtime: number): Promise<void> {
  const client = world.runtimes[runtime];
  if (client) world.kymaRuntime.set(kymaName, client);
  await world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kymaName, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: kymaName } },
      data: { config: Buffer.from(world.runtimeKubeconfigs[runtime] ?? '').toString('base64') },
    },
    'e2e-user',
  );
}

export { REMOTE_KYMA };

/**
 * Creates the KCP Kyma, or edits a Kyma: then (as a runtime admin would) the runtime's Kyma gets the new module list
 * by merge patch, waiting until it exists, because from its creation on it is the one that counts (a KCP spec edit
 * racing its creation would otherwise be lost, as upstream).
 */
export async function applyKyma(
  world: World,
  name: string,
  spec: Kyma['spec'],
  labels: Record<string, string> = {},
): Promise<void> {
  const existed = Boolean(await getKyma(world, name));
  await world.kcp.apply(
    { apiVersion: API_VERSION, kind: 'Kyma', metadata: { name, namespace: KCP_NAMESPACE, labels }, spec },
    'e2e-user',
  );
  const runtime = world.kymaRuntime.get(name);
  if (!runtime || !existed) return;
  await eventually(
    `the runtime Kyma of ${name} exists (to edit it)`,
    async () => Boolean(await runtime.get(REMOTE_KYMA).catch(() => undefined)),
    60_000,
  );
  await runtime.mergePatch(REMOTE_KYMA, { spec: { channel: spec?.channel, modules: spec?.modules ?? [] } });
}

export const getKyma = (world: World, name: string) =>
  world.kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name });

export async function manifestsOf(world: World, kyma: string): Promise<Manifest[]> {
  return (
    await world.kcp.list<Manifest>(API_VERSION, 'Manifest', {
      namespace: KCP_NAMESPACE,
      labelSelector: `${LABEL.kymaName}=${kyma}`,
    })
  ).items;
}

/** Polls until `check` returns a value (not undefined/false); fails with the last observation. */
export async function eventually<T>(
  what: string | (() => string),
  check: () => Promise<T | undefined | false>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${typeof what === 'string' ? what : what()}: not within ${timeoutMs / 1000} s${last ? ` (last error: ${String(last)})` : ''}`,
      );
    await sleep(250);
  }
}

/** The Kyma once it has `state` (and, optionally, satisfies `also`). */
export function kymaInState(world: World, name: string, state: string, also: (k: Kyma) => boolean = () => true) {
  let seen: Kyma | undefined;
  return eventually(
    () => `Kyma ${name} ${state} (last status: ${JSON.stringify(seen?.status ?? {})})`,
    async () => {
      seen = await getKyma(world, name);
      return seen?.status?.state === state && also(seen) ? seen : undefined;
    },
  );
}

/** Deletes a Kyma (background or foreground propagation) and waits until it is gone. */
export async function deleteKyma(
  world: World,
  name: string,
  propagation: 'Background' | 'Foreground' = 'Background',
): Promise<void> {
  await world.kcp.delete({ apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name }, propagation);
}

/** Waits until the Kyma is gone and, on its runtime, no lifecycle CRD is still terminating (so the next Kyma on that
 * runtime does not race a CRD its deletion removed; CRDs that still hold a user's objects stay, not terminating). */
export async function kymaGone(world: World, name: string, timeoutMs = 90_000): Promise<void> {
  let seen: unknown;
  await eventually(
    () => `Kyma ${name} gone (last: ${JSON.stringify((seen as { status?: unknown } | undefined)?.status)})`,
    async () => {
      seen = await getKyma(world, name);
      return seen === undefined;
    },
    timeoutMs,
  );
  const runtime = world.kymaRuntime.get(name);
  if (!runtime) return;
  const crd = (plural: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: `${plural}.operator.kyma-project.io`,
  });
  await eventually(
    `no lifecycle CRD terminating on the runtime of ${name}`,
    async () => {
      for (const plural of ['kymas', 'moduletemplates', 'modulereleasemetas']) {
        if (
          (await runtime.get<{ metadata: { name: string; deletionTimestamp?: string } }>(crd(plural)))?.metadata
            .deletionTimestamp
        )
          return false;
      }
      return true;
    },
    timeoutMs,
  );
}

/** Deletes every Kyma still in the KCP (left by a failed test) and waits until they are gone; a Kyma that does not
 * go within a minute has its finalizers dropped so the next test starts on a runtime with one Kyma at most. */
export async function deleteLeftoverKymas(world: World): Promise<void> {
  const kymas = (await world.kcp.list<Kyma>(API_VERSION, 'Kyma', { namespace: KCP_NAMESPACE })).items;
  const forced = new Set<string>();
  for (const kyma of kymas) {
    const name = kyma.metadata.name;
    await deleteKyma(world, name).catch(() => undefined);
    await kymaGone(world, name, 60_000).catch(async () => {
      forced.add(name);
      for (const m of await manifestsOf(world, name))
        await world.kcp
          .mergePatch(
            { apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name: m.metadata.name },
            { metadata: { finalizers: null } },
          )
          .catch(() => undefined);
      await world.kcp
        .mergePatch(
          { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name },
          { metadata: { finalizers: null } },
        )
        .catch(() => undefined);
    });
  }
  const leaked = (await removeOrphanedRuntimeKymas(world)).filter((owner) => !forced.has(owner.split('/')[1] ?? ''));
  if (leaked.length)
    throw new Error(
      `runtime Kymas outlived their deleted Kymas (purge should have removed them): ${leaked.join(', ')}`,
    );
}

/** The end of a test file: every Kyma it left deleted (the runtimes' Kymas outlive a file otherwise), then its
 * runner stopped, also when the clean-up failed; nothing when the world never started. */
export async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  try {
    await deleteLeftoverKymas(world);
  } finally {
    await world.runner.stop();
  }
}

/**
 * Deletes runtime Kymas on the shared runtimes whose KCP Kyma is gone while its kubeconfig Secret is still there — so
 * the next test file's Kyma on that runtime does not inherit their module list — and returns their owners.
 */
async function removeOrphanedRuntimeKymas(world: World): Promise<string[]> {
  const owners: string[] = [];
  for (const runtime of world.runtimes) {
    const items = (await runtime.list<Kyma>(API_VERSION, 'Kyma').catch(() => ({ items: [] as Kyma[] }))).items;
    for (const remote of items) {
      const owner = remote.metadata.annotations?.[ANNOTATION.ownedBy] ?? '';
      const [namespace = '', name = ''] = owner.split('/');
      if (namespace !== KCP_NAMESPACE || (await getKyma(world, name))) continue;
      const secrets = await world.kcp.list('v1', 'Secret', { namespace, labelSelector: `${LABEL.kymaName}=${name}` });
      if (!secrets.items.length) continue; // the runtime was let go without a clean-up (upstream: a missing Secret)
      await runtime.delete({
        apiVersion: API_VERSION,
        kind: 'Kyma',
        namespace: remote.metadata.namespace ?? '',
        name: remote.metadata.name,
      });
      owners.push(owner);
    }
  }
  return owners;
}

/** Waits until a few seconds past a minute: the resync's PingSource fires on the minute, so what a test does in the
 * next ~45 s happens without a resync tick (check with resyncTicks before and after). */
export async function justAfterTheMinute(): Promise<void> {
  const second = new Date().getSeconds();
  if (second >= 3 && second < 15) return;
  await sleep(((63 - second) % 60) * 1000);
}

/** The resync ticks the world's sources have sent so far. */
export const resyncTicks = (world: World) => world.events.filter((e) => e.type === PING).length;
