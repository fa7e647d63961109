// The functions as their Knative Services run them (the bench's `--engine knative`): each in processes of its own,
// configured by the Service as applied from manifests/ (its envFrom ConfigMap, its env, its containerConcurrency).
import { join } from 'node:path';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { KubeObject } from '../../shared/kube/types.ts';
import { FUNCTIONS } from '../runner/functions.ts';
import { startFunctionPods, type FunctionPods } from './function-pods.ts';
import { CLUSTER_SIDE_IP } from './pods.ts';
import type { KnativeRunnerOptions } from './runner.ts';

export interface ServedFunctions {
  urls: Map<string, string>;
  pods: Map<string, FunctionPods>;
  close(): Promise<void>;
}

/** Every function in processes of its own (function-pods.ts), configured as its Knative Service configures it, behind
 * a stand-in for Serving's queue-proxy (local/knative/queue-proxy.ts). */
export async function functionsInProcesses(
  opts: KnativeRunnerOptions,
  kcp: KubeClient,
  pods: { instances: number; env: Record<string, string> },
  ingress: string,
): Promise<ServedFunctions> {
  // The Services' envFrom (manifests/config.yaml as applied), their own env, then what the caller sets (registry, log).
  const configMap = await kcp.get<KubeObject & { data?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: opts.config.kcpNamespace,
    name: 'lifecycle-config',
  });
  const env = { ...pods.env, K_SINK: ingress, KUBECONFIG: opts.kubeconfigPath };
  const started = new Map<string, FunctionPods>();
  const close = () => Promise.all([...started.values()].map((p) => p.close())).then(() => undefined);
  try {
    for (const name of Object.keys(FUNCTIONS)) {
      const service = await serviceOf(kcp, opts.config.kcpNamespace, name);
      started.set(
        name,
        await startFunctionPods({
          name,
          instances: pods.instances,
          env: { ...configMap?.data, ...service.env, ...env },
          logDir: join(opts.runDir, 'logs'),
          concurrency: service.concurrency,
        }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  const urls = new Map([...started].map(([name, p]) => [name, `http://${CLUSTER_SIDE_IP}:${p.port}`]));
  return { urls, pods: started, close };
}

interface ServiceSpec {
  spec?: {
    template?: {
      spec?: { containerConcurrency?: number; containers?: { env?: { name: string; value?: string }[] }[] };
    };
  };
}

/** The function's Service as applied from manifests/: calls in flight per instance (Serving's default 0 = no limit)
 * and its container's own `env` (values only), which Kubernetes sets over `envFrom`. */
async function serviceOf(
  kcp: KubeClient,
  namespace: string,
  name: string,
): Promise<{ concurrency: number; env: Record<string, string> }> {
  const service = await kcp.get<KubeObject & ServiceSpec>({
    apiVersion: 'serving.knative.dev/v1',
    kind: 'Service',
    namespace,
    name,
  });
  const pod = service?.spec?.template?.spec;
  const env = (pod?.containers?.[0]?.env ?? []).flatMap((e) => (e.value === undefined ? [] : [[e.name, e.value]]));
  return { concurrency: pod?.containerConcurrency || Number.MAX_SAFE_INTEGER, env: Object.fromEntries(env) };
}
