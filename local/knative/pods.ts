// A local kubelet for Knative Eventing's Deployments: every Deployment in the watched namespaces whose container image
// is one of Knative's commands (`ko://knative.dev/eventing/cmd/<path>`, as in Knative's own config/ and in the
// Deployments its controller creates for ApiServerSources) runs as a process of the binary built from that command,
// with the container's environment resolved as a kubelet would (values, fieldRefs, ConfigMap keys) plus a kubeconfig
// of the pod's ServiceAccount,
// and with its listening ports moved to free ones (all pods share one network here). Scaled to 0 or deleted: stopped;
// its spec changed: restarted.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { startProcess, type ManagedProcess } from '../controlplane/process.ts';
import type { KubeClient } from '../../shared/kube/client.ts';

const KO_PREFIX = 'ko://knative.dev/eventing/cmd/';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string }; configMapKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface ContainerPort {
  name?: string;
  containerPort: number;
}
export interface Deployment {
  metadata: { name: string; namespace?: string; uid?: string };
  spec?: {
    replicas?: number;
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        serviceAccountName?: string;
        containers?: { image?: string; env?: EnvVar[]; args?: string[]; ports?: ContainerPort[] }[];
      };
    };
  };
}

const run = promisify(execFile);
/** The cluster side of every pod's veth pair (cluster-network.sh gives the cluster network this address). */
export const CLUSTER_SIDE_IP = '10.244.0.1';

/** A running pod: its Deployment's labels and where each container port really listens. */
export interface LocalPod {
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** The pod's address (its own network namespace). */
  readonly ip: string;
  /** Container port names → numbers (a Service's targetPort may name one). */
  readonly ports: Map<number | string, number>;
  readonly process: ManagedProcess;
  readonly specHash: string;
}

/** PURE. The binary a container image names, when it is one of Knative Eventing's commands. */
export function commandOf(image: string | undefined): string | undefined {
  return image?.startsWith(KO_PREFIX) ? basename(image.slice(KO_PREFIX.length)) : undefined;
}

/** PURE. The environment of a container as a kubelet would set it; `configMaps` answers configMapKeyRefs. */
export function resolveEnv(
  env: readonly EnvVar[],
  pod: { name: string; namespace: string },
  configMaps: (name: string) => Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of env) {
    const ref = v.valueFrom;
    if (ref?.fieldRef)
      out[v.name] =
        ref.fieldRef.fieldPath === 'metadata.namespace'
          ? pod.namespace
          : ref.fieldRef.fieldPath === 'metadata.name'
            ? pod.name
            : '';
    else if (ref?.configMapKeyRef) {
      const value = configMaps(ref.configMapKeyRef.name)?.[ref.configMapKeyRef.key];
      if (value !== undefined) out[v.name] = value;
      else if (!ref.configMapKeyRef.optional) out[v.name] = '';
    } else out[v.name] = v.value ?? '';
  }
  return out;
}

export interface KubeletOptions {
  kcp: KubeClient;
  /** A kubeconfig file acting as the ServiceAccount (Knative's webhooks check who changed what, RBAC applies). */
  kubeconfigOf: (namespace: string, serviceAccount: string) => Promise<string>;
  binDir: string;
  runDir: string;
  namespaces: string[];
  /** Whether an image's binary is there to run (Knative's config names commands not built here). */
  runs: (image: string) => boolean;
  onChange?: () => void;
}

export class LocalKubelet {
  private readonly pods = new Map<string, LocalPod>();
  private started = 0;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  private readonly options: KubeletOptions;

  constructor(options: KubeletOptions) {
    this.options = options;
  }

  running(): LocalPod[] {
    return [...this.pods.values()];
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopping.signal.aborted) {
        await this.sync().catch((e: unknown) => console.error(`[knative kubelet] ${String(e)}`));
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await Promise.all([...this.pods.values()].map((p) => p.process.stop()));
    this.pods.clear();
  }

  /** One pass: starts, restarts and stops processes so that they match the Deployments. */
  async sync(): Promise<void> {
    const wanted = new Map<string, Deployment>();
    for (const namespace of this.options.namespaces) {
      const list = await this.options.kcp.list<Deployment & { apiVersion: string; kind: string }>(
        'apps/v1',
        'Deployment',
        { namespace },
      );
      for (const d of list.items) {
        const image = d.spec?.template?.spec?.containers?.[0]?.image;
        if ((d.spec?.replicas ?? 1) > 0 && commandOf(image) && this.options.runs(image ?? ''))
          wanted.set(`${namespace}/${d.metadata.name}`, d);
      }
    }
    let changed = false;
    for (const [key, pod] of this.pods) {
      const d = wanted.get(key);
      if (d && hashOf(d) === pod.specHash && !pod.process.exit()) continue;
      await pod.process.stop();
      this.pods.delete(key);
      changed = true;
    }
    for (const [key, d] of wanted) {
      if (this.pods.has(key)) continue;
      this.pods.set(key, await this.run(d));
      changed = true;
    }
    if (changed) this.options.onChange?.();
  }

  private async run(d: Deployment): Promise<LocalPod> {
    const namespace = d.metadata.namespace ?? '';
    const container = d.spec?.template?.spec?.containers?.[0] ?? {};
    const command = commandOf(container.image) ?? '';
    const configMaps = new Map<string, Record<string, string>>();
    for (const cm of (
      await this.options.kcp.list<{
        apiVersion: string;
        kind: string;
        metadata: { name: string };
        data?: Record<string, string>;
      }>('v1', 'ConfigMap', { namespace })
    ).items)
      configMaps.set(cm.metadata.name, cm.data ?? {});
    const env = resolveEnv(container.env ?? [], { name: `${d.metadata.name}-local`, namespace }, (n) =>
      configMaps.get(n),
    );
    const ports = new Map<number | string, number>();
    for (const p of container.ports ?? []) {
      ports.set(p.containerPort, p.containerPort);
      if (p.name) ports.set(p.name, p.containerPort);
    }
    const kubeconfig = await this.options.kubeconfigOf(
      namespace,
      d.spec?.template?.spec?.serviceAccountName ?? 'default',
    );
    Object.assign(env, { KUBECONFIG: kubeconfig });
    const n = ++this.started;
    const ip = `10.244.${Math.floor(n / 200)}.${(n % 200) + 2}`;
    const ready = join(this.options.runDir, `pod-${n}.network-ready`);
    // The process waits in its new network namespace until the network is there, then becomes the command; it gives
    // up after 60 s (a pod whose network was never set up must not poll forever after its run ended).
    const proc = await startProcess({
      name: `knative-${namespace}-${d.metadata.name}`.slice(0, 100),
      bin: 'unshare',
      runDir: this.options.runDir,
      env,
      args: [
        '--net',
        'bash',
        '-c',
        'i=0; while [ ! -e "$0" ]; do i=$((i+1)); [ "$i" -le 1200 ] || exit 1; sleep 0.05; done; exec "$@"',
        ready,
        join(this.options.binDir, command),
        ...(container.args ?? []),
      ],
    });
    await podNetwork(proc.pid, `kpod${n}`, ip);
    await writeFile(ready, '');
    return {
      namespace,
      labels: d.spec?.template?.metadata?.labels ?? {},
      ip,
      ports,
      process: proc,
      specHash: hashOf(d),
    };
  }
}

/** A veth pair from the cluster network into the pod's network namespace (the process `pid` is in), the pod's
 * address on its end, routes both ways. */
async function podNetwork(pid: number, device: string, ip: string): Promise<void> {
  await run('ip', ['link', 'add', device, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', String(pid)]);
  await run('ip', ['link', 'set', device, 'up']);
  await run('ip', ['route', 'add', `${ip}/32`, 'dev', device, 'src', CLUSTER_SIDE_IP]);
  const inside = `ip link set lo up && ip addr add ${ip}/32 dev eth0 && ip link set eth0 up && ip route add ${CLUSTER_SIDE_IP}/32 dev eth0 && ip route add default via ${CLUSTER_SIDE_IP} dev eth0`;
  await run('nsenter', ['-t', String(pid), '-n', 'sh', '-c', inside]);
}

const hashOf = (d: Deployment) =>
  createHash('sha256')
    .update(JSON.stringify(d.spec?.template ?? {}))
    .digest('hex');
