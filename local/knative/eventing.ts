// Knative Eventing's own parts on the harness KCP (issue 24): Knative's config/ as published in knative.dev/eventing
// (core, the in-memory channel, the multi-tenant channel-based Broker) applied with kubectl, its Deployments run by
// the local kubelet from the binaries local/knative/build.sh built, Services reachable through the cluster DNS.
// Runs inside cluster-network.sh (it writes the hosts file that namespace mounts over /etc/hosts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { KubeClient } from '../../shared/kube/client.ts';
import { ClusterDns, KUBERNETES_SERVICE } from './cluster-dns.ts';
import { commandOf, LocalKubelet } from './pods.ts';

const run = promisify(execFile);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
export const KNATIVE_NAMESPACE = 'knative-eventing';
/** The parts of Knative's config/ applied, in order. */
const CONFIG_DIRS = ['core', 'channels/in-memory-channel', 'brokers/mt-channel-broker'];

export interface KnativeEventingOptions {
  kcp: KubeClient;
  kubeconfigPath: string;
  /** The KCP kube-apiserver's URL (https://127.0.0.1:<port>). */
  apiServer: string;
  /** A kubeconfig (text) of another identity of the KCP, e.g. a cluster's kubeconfigFor. */
  kubeconfigFor: (user: string, groups: string[]) => Promise<string>;
  kubectl: string;
  /** Where build.sh put the binaries (and config/). */
  knativeDir: string;
  runDir: string;
  hostsFile: string;
  /** Namespaces whose Knative Deployments run (knative-eventing always): where ApiServerSource adapters are created. */
  namespaces: string[];
  progress?: (line: string) => void;
}

export interface KnativeEventing {
  readonly kubelet: LocalKubelet;
  readonly dns: ClusterDns;
  stop(): Promise<void>;
}

/** Applies files with kubectl (server-side), retrying while the webhook that validates them is not serving yet. */
export async function kubectlApply(
  opts: Pick<KnativeEventingOptions, 'kubectl' | 'kubeconfigPath'>,
  args: string[],
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await run(
        opts.kubectl,
        ['--kubeconfig', opts.kubeconfigPath, 'apply', '--server-side', '--force-conflicts', ...args],
        { maxBuffer: 16 << 20 },
      );
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`kubectl apply ${args.join(' ')}: ${(error as { stderr?: string }).stderr ?? String(error)}`, {
          cause: error,
        });
      await sleep(2_000);
    }
  }
}

/** Kubeconfig files acting as ServiceAccounts (a client certificate with the ServiceAccount's user name and groups,
 * which RBAC and Knative's webhooks treat as that ServiceAccount), one file per account. */
function serviceAccountKubeconfigs(
  opts: KnativeEventingOptions,
): (namespace: string, serviceAccount: string) => Promise<string> {
  const files = new Map<string, Promise<string>>();
  return (namespace, serviceAccount) => {
    const key = `${namespace}/${serviceAccount}`;
    let file = files.get(key);
    if (!file) {
      const path = join(opts.runDir, `sa-${namespace}-${serviceAccount}.kubeconfig`);
      // Pods reach the kube-apiserver as in a cluster: kubernetes.default.svc (cluster-dns.ts forwards it).
      const inCluster = `https://${KUBERNETES_SERVICE.ip}:${KUBERNETES_SERVICE.port}`;
      file = opts
        .kubeconfigFor(`system:serviceaccount:${namespace}:${serviceAccount}`, [
          'system:serviceaccounts',
          `system:serviceaccounts:${namespace}`,
        ])
        .then((text) => writeFile(path, text.replace(/server: \S+/, `server: ${inCluster}`), { mode: 0o600 }))
        .then(() => path);
      files.set(key, file);
    }
    return file;
  };
}

export async function startKnativeEventing(opts: KnativeEventingOptions): Promise<KnativeEventing> {
  const say = opts.progress ?? (() => undefined);
  const config = join(opts.knativeDir, 'config');
  const kubelet = new LocalKubelet({
    kcp: opts.kcp,
    kubeconfigOf: serviceAccountKubeconfigs(opts),
    binDir: opts.knativeDir,
    runDir: opts.runDir,
    namespaces: [KNATIVE_NAMESPACE, ...opts.namespaces],
    runs: (image) => existsSync(join(opts.knativeDir, commandOf(image) ?? '-')),
    onChange: () => void dns.sync().catch(() => undefined),
  });
  const dns = new ClusterDns({
    kcp: opts.kcp,
    hostsFile: opts.hostsFile,
    pods: () => kubelet.running(),
    apiServerPort: Number(new URL(opts.apiServer).port),
  });
  say(`applying Knative Eventing's config (${CONFIG_DIRS.join(', ')}) and the serving Service CRD`);
  await kubectlApply(opts, ['-f', here('./serving-service-crd.yaml')]);
  for (const dir of CONFIG_DIRS)
    await kubectlApply(opts, ['-R', '-f', join(config, dir)]).catch((e: unknown) =>
      say(`(first pass) ${String(e).slice(0, 300)}`),
    );
  kubelet.start();
  const ticker = setInterval(() => void dns.sync().catch(() => undefined), 1_000);
  // The second pass: objects the webhook refused while it was starting.
  for (const dir of CONFIG_DIRS) await kubectlApply(opts, ['-R', '-f', join(config, dir)]);
  say(
    `Knative Eventing's pods run: ${kubelet
      .running()
      .map((p) => p.process.name)
      .join(', ')}`,
  );
  return {
    kubelet,
    dns,
    stop: async () => {
      clearInterval(ticker);
      await kubelet.stop();
      await dns.close();
    },
  };
}
