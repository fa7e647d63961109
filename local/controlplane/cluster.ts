import type { KubeConfig } from '@kubernetes/client-node';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Binaries } from './binaries.ts';
import { loadKubeConfig, renderKubeconfig } from './kubeconfig.ts';
import { createClusterPki, issueClientCert, type ClusterPki } from './pki.ts';
import { freePort } from './ports.ts';
import { answers, type TlsMaterial } from './probe.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';
import { startControllerManager, startSimulatedRollouts, startWorkloadControllers } from './workloads.ts';

export interface ClusterOptions {
  name: string;
  runDir: string;
  binaries: Binaries;
  /** Also run kube-controller-manager, kube-scheduler and kwok with one fake node, so workloads roll out;
   * 'simulated': kwok alone marks workloads rolled out (the scale benchmark's cheap mode). */
  workloads?: boolean | 'simulated';
  /** Run kube-controller-manager with only the namespace and garbage-collector controllers (a KCP). */
  garbageCollection?: boolean;
  /** Extra kube-apiserver flags, e.g. for load tests. */
  apiServerFlags?: string[];
  startTimeoutMs?: number;
}

/** One real cluster: etcd + kube-apiserver on 127.0.0.1, optionally with workload controllers. */
export interface Cluster {
  readonly name: string;
  readonly server: string;
  /** Admin kubeconfig (system:masters), credentials embedded. */
  readonly kubeconfig: string;
  readonly kubeconfigPath: string;
  readonly pki: ClusterPki;
  readonly processes: ManagedProcess[];
  /** The kube-apiserver (also in `processes`); `apiServer.kill()` crashes it, e.g. for a fault test. */
  readonly apiServer: ManagedProcess;
  /**
   * Starts the kube-apiserver again after it exited (kill, stop or a crash): the same port, etcd, certificates and
   * flags, so every kubeconfig of the cluster works again; resolves once it answers /readyz.
   */
  restartApiServer(): Promise<void>;
  /**
   * Another kube-apiserver on the same etcd, on a port of its own, with the same certificates and flags — a second
   * replica of a highly available control plane, so a fault test can write while `apiServer` is down. Returns its
   * admin kubeconfig once it is ready; it is stopped with the cluster (or earlier with `process.stop()`).
   */
  startReplicaApiServer(): Promise<{ kubeconfig: string; process: ManagedProcess }>;
  kubeConfig(): KubeConfig;
  /** Kubeconfig of another identity, signed by this cluster's CA (CN = user, O = groups). */
  kubeconfigFor(user: string, groups?: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const dir = join(opts.runDir, opts.name);
  const timeoutMs = opts.startTimeoutMs ?? 90_000;
  const pki = await createClusterPki(join(dir, 'pki'), opts.name);
  const etcd = await startEtcd(opts, dir, timeoutMs);
  const port = await freePort();
  const server = `https://127.0.0.1:${port}`;
  const startApiServer = (name: string, at: number) =>
    startProcess({
      name,
      bin: opts.binaries['kube-apiserver'],
      runDir: opts.runDir,
      args: apiServerArgs(opts, pki, etcd.url, at, port),
    });
  const apiserver = await startApiServer(`${opts.name}-kube-apiserver`, port);
  const ca = await readFile(pki.caCert, 'utf8');
  const admin = await issueClientCert(pki, 'lifecycle-admin', ['system:masters']);
  const kubeconfigFor = async (user: string, groups: string[] = [], at = server) => {
    const creds = user === 'lifecycle-admin' ? admin : await issueClientCert(pki, user, groups);
    return renderKubeconfig({ cluster: opts.name, server: at, caPem: ca, user, ...creds });
  };
  const kubeconfig = await kubeconfigFor('lifecycle-admin');
  const kubeconfigPath = join(dir, 'admin.kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
  const tls: TlsMaterial = { ca, cert: admin.certPem, key: admin.keyPem };
  const apiServerReady = (proc: ManagedProcess, at: string) =>
    waitUntil(`${proc.name} ready`, () => answers(`${at}/readyz`, tls), proc, timeoutMs);
  await apiServerReady(apiserver, server);
  await waitUntil(
    `${opts.name} namespace default`,
    () => answers(`${server}/api/v1/namespaces/default`, tls),
    apiserver,
    timeoutMs,
  );
  const processes = [etcd.process, apiserver];
  if (opts.workloads === 'simulated') {
    processes.push(...(await startSimulatedRollouts({ ...opts, pki, kubeconfigPath })));
  } else if (opts.workloads) {
    processes.push(...(await startWorkloadControllers({ ...opts, pki, kubeconfigPath, kubeconfig, timeoutMs })));
  } else if (opts.garbageCollection) {
    processes.push(await startControllerManager({ ...opts, pki, kubeconfigPath }, 'namespace,garbagecollector'));
  }
  const startReplicaApiServer = async () => {
    const replicaPort = await freePort();
    const proc = await startApiServer(`${opts.name}-kube-apiserver-replica-${replicaPort}`, replicaPort);
    processes.push(proc);
    await apiServerReady(proc, `https://127.0.0.1:${replicaPort}`);
    return {
      kubeconfig: await kubeconfigFor('lifecycle-admin', [], `https://127.0.0.1:${replicaPort}`),
      process: proc,
    };
  };
  return {
    name: opts.name,
    server,
    kubeconfig,
    kubeconfigPath,
    pki,
    processes,
    apiServer: apiserver,
    restartApiServer: async () => {
      await apiserver.respawn();
      await apiServerReady(apiserver, server);
    },
    startReplicaApiServer,
    kubeConfig: () => loadKubeConfig(kubeconfig),
    kubeconfigFor,
    stop: async () => {
      for (const proc of [...processes].reverse()) await proc.stop();
    },
  };
}

async function startEtcd(opts: ClusterOptions, dir: string, timeoutMs: number) {
  const [client, peer] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const process = await startProcess({
    name: `${opts.name}-etcd`,
    bin: opts.binaries.etcd,
    runDir: opts.runDir,
    args: [
      `--name=${opts.name}`,
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${opts.name}=${peerUrl}`,
      '--unsafe-no-fsync=true',
      '--log-level=warn',
      '--quota-backend-bytes=8589934592',
    ],
  });
  await waitUntil(`${opts.name} etcd healthy`, () => answers(`${url}/health`), process, timeoutMs);
  return { url, process };
}

/** The kube-apiserver's flags; `issuerPort` is the first API server's port (replicas share its token issuer). */
function apiServerArgs(
  opts: ClusterOptions,
  pki: ClusterPki,
  etcdUrl: string,
  port: number,
  issuerPort: number,
): string[] {
  return [
    `--etcd-servers=${etcdUrl}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    '--advertise-address=127.0.0.1',
    '--endpoint-reconciler-type=none',
    `--cert-dir=${pki.dir}`,
    `--tls-cert-file=${pki.servingCert}`,
    `--tls-private-key-file=${pki.servingKey}`,
    `--client-ca-file=${pki.caCert}`,
    '--authorization-mode=RBAC',
    `--service-account-issuer=https://127.0.0.1:${issuerPort}`,
    `--service-account-key-file=${pki.serviceAccountPub}`,
    `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--allow-privileged=true',
    '--disable-admission-plugins=ServiceAccount,TaintNodesByCondition',
    '--profiling=false',
    '--v=1',
    ...(opts.apiServerFlags ?? []),
  ];
}
