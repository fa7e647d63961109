// Helpers of the restart fault tests (reliability matrix, issue 8): clusters of their own, a Kyma pointed at one, and
// states the tests wait for. The faults themselves are the harness's: ManagedProcess.kill/respawn,
// Cluster.restartApiServer/startReplicaApiServer, Registry.stop/start (local/controlplane).
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { startCluster, type Cluster } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { testBinaries } from '../deploy/audited-kcp.ts';
import { eventually, getKyma, manifestsOf, type World } from '../e2e/world.ts';

/** A KCP of its own (etcd, kube-apiserver, namespace and garbage-collector controllers), to restart at will. */
export function ownKcp(name: string): Promise<Cluster> {
  return startCluster({
    name,
    runDir: inject('controlPlane').runDir,
    binaries: testBinaries(),
    garbageCollection: true,
  });
}

/** The Kyma's kubeconfig Secret pointing at a cluster of the test's own (admin credentials). */
export async function connectCluster(world: World, kyma: string, cluster: Cluster): Promise<KubeClient> {
  const client = await KubeClient.from(cluster.kubeConfig());
  world.kymaRuntime.set(kyma, client);
  await world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kyma, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: kyma } },
      data: { config: Buffer.from(cluster.kubeconfig).toString('base64') },
    },
    'e2e-user',
  );
  return client;
}

/** Every module of the Kyma is Ready (and there are `count`), at `version` when given. */
export const modulesReady = (count: number, version?: string) => (k: Kyma) => {
  const modules = k.status?.modules ?? [];
  return modules.length === count && modules.every((m) => m.state === 'Ready' && (!version || m.version === version));
};

/** Polls every 20 ms until `probe` is truthy: to act the moment something happens (e.g. kill mid-apply). */
export async function firstSeen(what: string, probe: () => Promise<unknown>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

/** The Kyma's single Manifest once it satisfies `check`. */
export function manifestWhen(
  world: World,
  kyma: string,
  what: string,
  check: (m: Manifest) => boolean,
  timeoutMs = 90_000,
): Promise<Manifest> {
  let seen: Manifest | undefined;
  return eventually(
    () => `${what} (last Manifest status: ${JSON.stringify(seen?.status ?? {})})`,
    async () => {
      [seen] = await manifestsOf(world, kyma);
      return seen && check(seen) ? seen : undefined;
    },
    timeoutMs,
  );
}

/** The Kyma once `check` holds, with a timeout of the test's choosing (kymaInState waits 90 s at most). */
export function kymaWhen(
  world: World,
  name: string,
  what: string,
  check: (k: Kyma) => boolean,
  timeoutMs: number,
): Promise<Kyma> {
  let seen: Kyma | undefined;
  return eventually(
    () => `Kyma ${name}: ${what} (last status: ${JSON.stringify(seen?.status ?? {})})`,
    async () => {
      seen = await getKyma(world, name);
      return seen && check(seen) ? seen : undefined;
    },
    timeoutMs,
  );
}

/** Resolves once the broker has nothing in flight, queued or waiting for a retry; fails after `timeoutMs`. */
export async function brokerIdle(world: World, timeoutMs = 120_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the broker still had deliveries pending after ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([world.runner.broker.idle(), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** Seconds since `start`, one decimal. */
export const secondsSince = (start: number) => Math.round((Date.now() - start) / 100) / 10;
