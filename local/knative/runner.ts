// The lifecycle manager with Knative Eventing's own routing (issue 24): Knative's controller, webhook, Broker, in-memory
// channel, ApiServerSource and PingSource adapters (eventing.ts), the repository's manifests/ applied as they are
// (`kubectl apply -k manifests`), and the functions on local hosts: the only change is that each serving Service's
// status.address.url is the address of its function's host (no Serving controller runs). Events go source → Broker
// ingress → channel → filter → Trigger subscriber → reply → ingress, all Knative's code.
import type { KubeConfig } from '@kubernetes/client-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { composeDeps } from '../../shared/host/compose.ts';
import type { Config } from '../../shared/host/config.ts';
import { startFunctionHost, type FunctionHost } from '../../shared/host/host.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { httpSink } from '../../shared/host/sink.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { RuntimeWatches } from '../../components/runtime-watch/runtime-watches.ts';
import { startFleetService } from '../../components/fleet/service.ts';
import { FUNCTIONS } from '../runner/functions.ts';
import { MANIFESTS_DIR } from '../runner/local-runner.ts';
import { kubectlApply, startKnativeEventing, type KnativeEventing } from './eventing.ts';
import type { CallsOfInstance } from './function-pods.ts';
import { functionsInProcesses, type ServedFunctions } from './function-services.ts';
import { CLUSTER_SIDE_IP } from './pods.ts';

export interface KnativeRunnerOptions {
  kcp: KubeConfig;
  kubeconfigPath: string;
  kubeconfigFor: (user: string, groups: string[]) => Promise<string>;
  kubectl: string;
  knativeDir: string;
  runDir: string;
  hostsFile: string;
  config: Config;
  log: Logger;
  progress?: (line: string) => void;
  /** Run each function as its image does, in `instances` processes of its own with this environment (the bench, issue
   * 35). Default: every function in this process (the scenarios read their calls from the logger). */
  functionPods?: { instances: number; env: Record<string, string> };
}

export interface KnativeRunner {
  readonly eventing: KnativeEventing;
  /** The Broker's address (Knative's ingress). */
  readonly ingress: string;
  readonly functions: Map<string, string>;
  /** Knative's pods and the function processes (none when the functions run in this process): name → pid. */
  processes(): { name: string; pid: number }[];
  /** Calls per function instance by outcome status (empty when the functions run in this process). */
  calls(): Promise<Record<string, CallsOfInstance[]>>;
  stop(): Promise<void>;
}

interface Conditioned {
  metadata?: { name?: string };
  status?: { conditions?: { type: string; status: string; message?: string }[]; address?: { url?: string } };
}
const ready = (o: Conditioned | undefined) =>
  o?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** Waits until every object of a kind in the namespace is Ready; fails naming those that are not. */
async function allReady(
  kcp: KubeClient,
  apiVersion: string,
  kind: string,
  namespace: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const items = (
      await kcp.list<Conditioned & { apiVersion: string; kind: string; metadata: { name: string } }>(apiVersion, kind, {
        namespace,
      })
    ).items;
    const waiting = items.filter((i) => !ready(i));
    if (items.length && !waiting.length) return;
    if (Date.now() > deadline)
      throw new Error(
        `${kind}s not Ready within ${timeoutMs / 1000} s: ${
          waiting
            .map(
              (w) =>
                `${w.metadata.name} (${w.status?.conditions
                  ?.filter((c) => c.status !== 'True')
                  .map((c) => `${c.type}: ${c.message ?? c.status}`)
                  .join('; ')})`,
            )
            .join(', ') || 'none exists'
        }`,
      );
    await sleep(500);
  }
}

export async function startKnativeRunner(opts: KnativeRunnerOptions): Promise<KnativeRunner> {
  const say = opts.progress ?? (() => undefined);
  const kcp = await KubeClient.from(opts.kcp);
  const namespace = opts.config.kcpNamespace;
  const eventing = await startKnativeEventing({
    kcp,
    kubeconfigPath: opts.kubeconfigPath,
    apiServer: opts.kcp.getCurrentCluster()?.server ?? '',
    kubeconfigFor: opts.kubeconfigFor,
    kubectl: opts.kubectl,
    knativeDir: opts.knativeDir,
    runDir: opts.runDir,
    hostsFile: opts.hostsFile,
    namespaces: [namespace],
    progress: say,
  });
  try {
    return await routeThroughKnative(opts, kcp, eventing, say);
  } catch (error) {
    await eventing.stop();
    throw error;
  }
}

/** Waits until Knative's webhook defaults a Broker (its `spec.config`, from config-br-defaults): a Broker created
 * before that has no channel template and never becomes Ready. */
async function brokerDefaultsServed(kcp: KubeClient, timeoutMs = 120_000): Promise<void> {
  const probe = {
    apiVersion: 'eventing.knative.dev/v1',
    kind: 'Broker',
    metadata: { name: 'defaulting-probe', namespace: 'knative-eventing' },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const defaulted = await kcp
      .create<typeof probe & { spec?: { config?: { name?: string } } }>(probe, true)
      .catch(() => undefined);
    if (defaulted?.spec?.config?.name) return;
    if (Date.now() > deadline)
      throw new Error(`Knative's webhook did not default a Broker's spec.config within ${timeoutMs / 1000} s`);
    await sleep(1_000);
  }
}

async function routeThroughKnative(
  opts: KnativeRunnerOptions,
  kcp: KubeClient,
  eventing: KnativeEventing,
  say: (line: string) => void,
): Promise<KnativeRunner> {
  const namespace = opts.config.kcpNamespace;
  await brokerDefaultsServed(kcp);
  say('applying manifests/ (kubectl apply -k)');
  await kubectlApply(opts, ['-k', MANIFESTS_DIR]);
  await allReady(kcp, 'eventing.knative.dev/v1', 'Broker', namespace);
  const broker = await kcp.get<Conditioned>({
    apiVersion: 'eventing.knative.dev/v1',
    kind: 'Broker',
    namespace,
    name: 'lifecycle',
  });
  const ingress = broker?.status?.address?.url ?? '';
  const served = opts.functionPods
    ? await functionsInProcesses(opts, kcp, opts.functionPods, ingress)
    : await functionsInProcess(opts, ingress);
  const functions = served.urls;
  // The fleet component: the Triggers' dead-letter sink (ADR 60), its Service routed like the functions'.
  const fleet = await startFleetService(await KubeClient.from(opts.kcp), namespace, opts.log, 0, '0.0.0.0');
  const routes = new Map([...functions, ['lifecycle-fleet', `http://${CLUSTER_SIDE_IP}:${new URL(fleet.url).port}`]]);
  let watches: RuntimeWatches;
  try {
    watches = await routeToFunctions(opts, kcp, routes, ingress, say);
  } catch (error) {
    await Promise.all([served.close(), fleet.close()]);
    throw error;
  }
  say(`Knative routes the events: Broker ${ingress}, Triggers, ApiServerSource and PingSource Ready`);
  return {
    eventing,
    ingress,
    functions,
    processes: () => [
      ...eventing.kubelet.running().map((p) => ({ name: p.process.name, pid: p.process.pid })),
      ...[...served.pods.values()].flatMap((p) => p.processes),
    ],
    calls: async () =>
      Object.fromEntries(
        await Promise.all([...served.pods].map(async ([name, p]) => [name, await p.calls()] as const)),
      ),
    stop: async () => {
      await watches.stop();
      await eventing.stop();
      await Promise.all([served.close(), fleet.close()]);
    },
  };
}

/** Points each serving Service at its function, waits for Knative's routing to be Ready, then starts the runtime watch. */
async function routeToFunctions(
  opts: KnativeRunnerOptions,
  kcp: KubeClient,
  functions: Map<string, string>,
  ingress: string,
  say: (line: string) => void,
): Promise<RuntimeWatches> {
  const namespace = opts.config.kcpNamespace;
  for (const [name, url] of functions) {
    await kcp.mergePatch(
      { apiVersion: 'serving.knative.dev/v1', kind: 'Service', namespace, name },
      {
        status: { url, address: { url }, conditions: [{ type: 'Ready', status: 'True' }] },
      },
      'status',
    );
  }
  say(`functions on local hosts: ${[...functions].map(([n, u]) => `${n} ${u}`).join(', ')}`);
  await allReady(kcp, 'eventing.knative.dev/v1', 'Trigger', namespace);
  await allReady(kcp, 'sources.knative.dev/v1', 'ApiServerSource', namespace);
  await allReady(kcp, 'sources.knative.dev/v1', 'PingSource', namespace);
  const watches = new RuntimeWatches({
    kcp,
    namespace,
    sink: httpSink(ingress),
    log: opts.log.child({ component: 'runtime-watch' }),
    execCommands: opts.config.kubeconfigExecCommands,
  });
  await watches.start();
  return watches;
}

/** Every function on a host in this process, reachable from the pods' network namespaces at the cluster side's address. */
async function functionsInProcess(opts: KnativeRunnerOptions, ingress: string): Promise<ServedFunctions> {
  const deps = await composeDeps(opts.kcp, opts.config, httpSink(ingress));
  const hosts: FunctionHost[] = [];
  const urls = new Map<string, string>();
  for (const [name, factory] of Object.entries(FUNCTIONS)) {
    const host = await startFunctionHost(factory(deps), opts.log.child({ fn: name }), 0, '0.0.0.0');
    hosts.push(host);
    urls.set(name, `http://${CLUSTER_SIDE_IP}:${new URL(host.url).port}`);
  }
  return {
    urls,
    pods: new Map(),
    close: async () => {
      await Promise.all(hosts.map((h) => h.close()));
      deps.kcp.stopCaches();
    },
  };
}
