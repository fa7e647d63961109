// Cluster DNS and a kube-proxy for the local Knative pods (inside cluster-network.sh's namespaces): every Service's
// cluster names point at its ClusterIP in the private hosts file (the Service range is local there); each Service
// port listens on the ClusterIP and forwards to the pod its selector matches (the process's real port); an ExternalName Service (a channel's) is an
// alias of the Service it names. Knative's components then reach `broker-ingress.knative-eventing.svc.cluster.local`,
// a channel's address or the webhook exactly as in a cluster.
import { writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { LocalPod } from './pods.ts';

interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
}
interface Service {
  metadata: { name: string; namespace?: string };
  spec?: {
    type?: string;
    clusterIP?: string;
    externalName?: string;
    selector?: Record<string, string>;
    ports?: ServicePort[];
  };
}

/** The KCP kube-apiserver's Service address inside the cluster (in its serving certificate). */
export const KUBERNETES_SERVICE = { ip: '10.0.0.1', port: 443 };

/** PURE. The hosts-file names of a Service. */
export const clusterNames = (name: string, namespace: string) => [
  `${name}.${namespace}.svc.cluster.local`,
  `${name}.${namespace}.svc`,
];

/** PURE. The pod a Service's selector picks (first match in its namespace), if any. */
export function podFor(service: Service, pods: readonly LocalPod[]): LocalPod | undefined {
  const selector = Object.entries(service.spec?.selector ?? {});
  if (!selector.length) return undefined;
  return pods.find((p) => p.namespace === service.metadata.namespace && selector.every(([k, v]) => p.labels[k] === v));
}

export interface ClusterDnsOptions {
  kcp: KubeClient;
  hostsFile: string;
  pods: () => LocalPod[];
  /** The KCP kube-apiserver's port on 127.0.0.1 (behind kubernetes.default.svc). */
  apiServerPort: number;
}

export class ClusterDns {
  private readonly listeners = new Map<string, Server>();
  private readonly published = new Map<string, string>();
  private readonly connections = new Set<{ destroy(): void }>();
  private services: Service[] = [];

  private readonly options: ClusterDnsOptions;

  constructor(options: ClusterDnsOptions) {
    this.options = options;
  }

  /** Re-reads the Services: hosts file and listeners follow. */
  async sync(): Promise<void> {
    this.services = (
      await this.options.kcp.list<Service & { apiVersion: string; kind: string }>('v1', 'Service')
    ).items.filter((s) => s.metadata.namespace !== 'default' && s.metadata.namespace !== 'kube-system');
    const lines = [
      '127.0.0.1 localhost',
      '::1 localhost',
      `${KUBERNETES_SERVICE.ip} ${clusterNames('kubernetes', 'default').join(' ')}`,
    ];
    await this.listen(KUBERNETES_SERVICE.ip, KUBERNETES_SERVICE.port);
    for (const s of this.services) {
      const namespace = s.metadata.namespace ?? '';
      const target = s.spec?.type === 'ExternalName' ? this.byClusterName(s.spec.externalName ?? '') : undefined;
      const ip = (target ?? s).spec?.clusterIP;
      if (!ip || ip === 'None') continue;
      lines.push(`${ip} ${clusterNames(s.metadata.name, namespace).join(' ')}`);
      if (target) continue;
      for (const p of s.spec?.ports ?? []) await this.listen(ip, p.port);
      await this.publishEndpoints(s).catch((e: unknown) =>
        console.error(`[cluster-dns] EndpointSlice of ${namespace}/${s.metadata.name}: ${String(e)}`),
      );
    }
    await writeFile(this.options.hostsFile, `${lines.join('\n')}\n`);
  }

  /** Stops listening and cuts the connections still open (keep-alive ones would hold the close forever). */
  async close(): Promise<void> {
    for (const c of this.connections) c.destroy();
    await Promise.all([...this.listeners.values()].map((s) => new Promise((resolve) => s.close(resolve))));
    this.listeners.clear();
  }

  private byClusterName(host: string): Service | undefined {
    return this.services.find((s) =>
      clusterNames(s.metadata.name, s.metadata.namespace ?? '').includes(host.replace(/\.$/, '')),
    );
  }

  /** Where a Service's address and port lead, looked up per connection (pods restart on new addresses). */
  private backend(ip: string, port: number): { host: string; port: number } | undefined {
    if (ip === KUBERNETES_SERVICE.ip && port === KUBERNETES_SERVICE.port)
      return { host: '127.0.0.1', port: this.options.apiServerPort };
    const service = this.services.find((s) => s.spec?.clusterIP === ip);
    const servicePort = service?.spec?.ports?.find((p) => p.port === port);
    const pod = service && podFor(service, this.options.pods());
    if (!servicePort || !pod) return undefined;
    const target = servicePort.targetPort ?? servicePort.port;
    const podPort = pod.ports.get(target) ?? (typeof target === 'number' ? target : undefined);
    return podPort === undefined ? undefined : { host: pod.ip, port: podPort };
  }

  /** The endpoint controller's part: an EndpointSlice naming the local pod (Knative's IMC waits for the
   * dispatcher's). */
  private async publishEndpoints(service: Service): Promise<void> {
    const pod = podFor(service, this.options.pods());
    const namespace = service.metadata.namespace ?? '';
    if (!pod) return;
    const ports = (service.spec?.ports ?? []).flatMap((p) => {
      const port = pod.ports.get(p.targetPort ?? p.port) ?? Number(p.targetPort ?? p.port);
      return Number.isInteger(port) ? [{ ...(p.name ? { name: p.name } : {}), protocol: 'TCP', port }] : [];
    });
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      addressType: 'IPv4',
      metadata: {
        name: `${service.metadata.name}-local`,
        namespace,
        labels: {
          'kubernetes.io/service-name': service.metadata.name,
          'endpointslice.kubernetes.io/managed-by': 'knative-local-kubelet',
        },
      },
      endpoints: [{ addresses: [pod.ip], conditions: { ready: true } }],
      ports,
    };
    const text = JSON.stringify(slice);
    if (this.published.get(`${namespace}/${service.metadata.name}`) === text) return;
    await this.options.kcp.apply(slice as never, 'knative-local-kubelet');
    this.published.set(`${namespace}/${service.metadata.name}`, text);
  }

  private async listen(ip: string, port: number): Promise<void> {
    const key = `${ip}:${port}`;
    if (this.listeners.has(key)) return;
    const server = createServer((client) => {
      const backend = this.backend(ip, port);
      if (!backend) return void client.destroy();
      const upstream = createConnection(backend);
      client.pipe(upstream).pipe(client);
      this.connections.add(client).add(upstream);
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.connections.delete(client);
        this.connections.delete(upstream);
      };
      client.on('close', end);
      client.on('error', end);
      upstream.on('error', end);
    });
    this.listeners.set(key, server);
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, ip, () => resolve()));
  }
}
