import { CoreV1Api } from '@kubernetes/client-node';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Binaries } from './binaries.ts';
import { loadKubeConfig } from './kubeconfig.ts';
import type { ClusterPki } from './pki.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

export interface WorkloadOptions {
  name: string;
  runDir: string;
  binaries: Binaries;
  pki: ClusterPki;
  kubeconfigPath: string;
  kubeconfig: string;
  timeoutMs: number;
}

/** The fake node kwok keeps Ready; pods scheduled onto it become Running without a kubelet. */
export const FAKE_NODE = 'kwok-node-0';

const CONTROLLERS = [
  'namespace',
  'garbagecollector',
  'deployment',
  'replicaset',
  'statefulset',
  'daemonset',
  'job',
  'serviceaccount',
  'serviceaccount-token',
  'clusterrole-aggregation',
].join(',');

/**
 * kube-controller-manager + kube-scheduler + kwok: Deployments and StatefulSets really roll out, with status
 * written by the real controllers, onto one fake node.
 */
export async function startWorkloadControllers(opts: WorkloadOptions): Promise<ManagedProcess[]> {
  const common = { runDir: opts.runDir };
  const kcm = await startControllerManager(opts, CONTROLLERS);
  const scheduler = await startProcess({
    ...common,
    name: `${opts.name}-kube-scheduler`,
    bin: opts.binaries['kube-scheduler'],
    args: [`--kubeconfig=${opts.kubeconfigPath}`, '--leader-elect=false', '--secure-port=0', '--v=1'],
  });
  const kwok = await startProcess({
    ...common,
    name: `${opts.name}-kwok`,
    bin: opts.binaries.kwok,
    args: [
      `--kubeconfig=${opts.kubeconfigPath}`,
      '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      '--cidr=10.244.0.0/16',
      '--node-ip=10.0.0.2',
      `--config=${fileURLToPath(new URL('./kwok-stages.yaml', import.meta.url))}`,
    ],
    env: { HOME: join(opts.runDir, opts.name) },
  });
  await createFakeNode(opts.kubeconfig);
  const core = loadKubeConfig(opts.kubeconfig).makeApiClient(CoreV1Api);
  await waitUntil(
    `${opts.name} fake node Ready`,
    async () => {
      const node = await core.readNode({ name: FAKE_NODE });
      return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
    kwok,
    opts.timeoutMs,
  );
  return [kwok, scheduler, kcm];
}

/**
 * Simulated rollouts (the scale benchmark's `--rollouts simulated`): kwok alone marks Deployments and StatefulSets
 * rolled out (kwok-rollouts.yaml), next to a controller-manager that only deletes namespaces and collects garbage.
 * Much cheaper than real rollouts (no ReplicaSets, Pods, scheduling); the tests always use real ones.
 */
export async function startSimulatedRollouts(
  opts: Omit<WorkloadOptions, 'kubeconfig' | 'timeoutMs'>,
): Promise<ManagedProcess[]> {
  const kcm = await startControllerManager(opts, 'namespace,garbagecollector');
  const kwok = await startProcess({
    runDir: opts.runDir,
    name: `${opts.name}-kwok`,
    bin: opts.binaries.kwok,
    args: [
      `--kubeconfig=${opts.kubeconfigPath}`,
      '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      `--config=${fileURLToPath(new URL('./kwok-rollouts.yaml', import.meta.url))}`,
    ],
    env: { HOME: join(opts.runDir, opts.name) },
  });
  return [kwok, kcm];
}

/** kube-controller-manager running the given controllers (the KCP runs only namespace and garbage collection). */
export function startControllerManager(
  opts: Omit<WorkloadOptions, 'kubeconfig' | 'timeoutMs'>,
  controllers: string,
): Promise<ManagedProcess> {
  return startProcess({
    runDir: opts.runDir,
    name: `${opts.name}-kube-controller-manager`,
    bin: opts.binaries['kube-controller-manager'],
    args: [
      `--kubeconfig=${opts.kubeconfigPath}`,
      `--controllers=${controllers}`,
      `--service-account-private-key-file=${opts.pki.serviceAccountKey}`,
      `--root-ca-file=${opts.pki.caCert}`,
      '--use-service-account-credentials=false',
      '--leader-elect=false',
      '--secure-port=0',
      '--v=1',
      '--concurrent-deployment-syncs=10',
      '--concurrent-replicaset-syncs=10',
      '--kube-api-qps=200',
      '--kube-api-burst=400',
      '--concurrent-gc-syncs=10',
    ],
  });
}

async function createFakeNode(kubeconfig: string): Promise<void> {
  const core = loadKubeConfig(kubeconfig).makeApiClient(CoreV1Api);
  // No kubelet, so no real limit: room for the pods of thousands of modules (the scale benchmark runs that many on one
  // runtime API server; the kubelet default of 110 pods capped it).
  const resources = { cpu: '100000', memory: '100Ti', pods: '100000' };
  await core.createNode({
    body: {
      metadata: {
        name: FAKE_NODE,
        annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
        labels: {
          'kubernetes.io/hostname': FAKE_NODE,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          type: 'kwok',
        },
      },
      status: { allocatable: resources, capacity: resources },
    },
  });
}
