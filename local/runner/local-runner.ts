import type { ClusterConfig } from '../../shared/kube/kubeconfig.ts';
import type { CloudEvent } from 'cloudevents';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  LocalApiServerSource,
  LocalBroker,
  LocalPingSource,
  apiServerSourcesOf,
  loadTriggers,
  pingSourcesOf,
} from '../eventing/index.ts';
import { readManifestDirectory } from '../controlplane/object-files.ts';
import { startFleetService, type FleetService } from '../../components/fleet/service.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { composeDeps } from '../../shared/host/compose.ts';
import type { Config } from '../../shared/host/config.ts';
import { startFunctionHost, type FunctionHost } from '../../shared/host/host.ts';
import { startTraceExport, stopTraceExport } from '../../shared/host/otel.ts';
import { sendToDeadLetterSink } from '../eventing/dead-letters.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { FUNCTIONS } from './functions.ts';
import { DeliveryOrder } from './delivery-order.ts';
import { brokerSink, inProcessSubscriber } from './in-process.ts';
import type { InProcessSubscriber } from '../eventing/delivery.ts';
import { RuntimeWatches } from '../../components/runtime-watch/runtime-watches.ts';

/** The fleet component's Knative Service: the Triggers' dead-letter sink (manifests/triggers, ADR 60). */
const FLEET_SERVICE = 'lifecycle-fleet';

export const MANIFESTS_DIR = fileURLToPath(new URL('../../manifests', import.meta.url));

export interface LocalRunner {
  readonly broker: LocalBroker;
  /** Function name → URL of its host. */
  readonly functions: Map<string, string>;
  /** The fleet component (metrics, fleet summary, why; ADR 19). */
  readonly fleet: FleetService;
  /** Sends the resync PingSource's event now. */
  resync(): Promise<void>;
  /** True once the runtime watch of `kyma` is open (its runtime's changes produce events from then on). */
  runtimeWatching(kyma: string): Promise<boolean>;
  stop(): Promise<void>;
}

export interface LocalRunnerOptions {
  kcp: ClusterConfig;
  config: Config;
  log: Logger;
  /** Fire the resync once at start (ApiServerSource sends nothing for objects that already exist). Default true. */
  resyncAtStart?: boolean;
  /** Sees every event the sources produce (tests record them to replay). */
  onSourceEvent?: (event: CloudEvent<unknown>) => void;
  /**
   * The KCP identity each component acts as — a function's name, `apiserver-source`, `runtime-watch` or `fleet` — as on
   * Knative, where each runs under its own ServiceAccount. Default: `kcp` for all.
   */
  identity?: (component: string) => Promise<ClusterConfig>;
}

/**
 * The single-machine deployment: every function on its own HTTP port, a local broker routing by the Trigger
 * files in manifests/triggers, the ApiServerSource and PingSource of manifests/eventing — the same wiring as on
 * Knative, so the functions cannot tell the difference; the broker calls the functions of this process instead of
 * posting to their ports (ADR 42).
 */
export async function startLocalRunner(opts: LocalRunnerOptions): Promise<LocalRunner> {
  await startTraceExport(opts.config.traces);
  const urls = new Map<string, string>();
  const inProcess = new Map<string, InProcessSubscriber>();
  const triggers = await loadTriggers(join(MANIFESTS_DIR, 'triggers'));
  let fleetUrl: string | undefined = undefined; // the dead-letter sink, once the fleet component below listens
  const broker = new LocalBroker({
    onDeadLetter: sendToDeadLetterSink(
      (sink) => (sink.ref?.name === FLEET_SERVICE && fleetUrl ? `${fleetUrl}${sink.uri ?? ''}` : undefined),
      opts.log.child({ component: 'broker' }),
    ),
    triggers,
    log: opts.log.child({ component: 'broker' }),
    coalesce: opts.config.localBrokerCoalesce,
    rankOf: new DeliveryOrder().rankOf,
    ...(opts.config.localBrokerMaxInFlight ? { maxDeliveriesInFlight: opts.config.localBrokerMaxInFlight } : {}),
    resolveSubscriber: (t) => urls.get(t.subscriber.ref?.name ?? '') ?? t.subscriber.uri ?? '',
    inProcess: (t) => (t.subscriber.ref ? inProcess.get(t.subscriber.ref.name) : undefined),
  });
  await broker.start();
  const sinkOfFunctions = brokerSink(broker);
  const kubeConfigOf = (component: string) => opts.identity?.(component) ?? Promise.resolve(opts.kcp);
  const shared = opts.identity ? undefined : await composeDeps(opts.kcp, opts.config, sinkOfFunctions);
  const hosts: FunctionHost[] = [];
  const clients = new Set<KubeClient>();
  for (const [name, factory] of Object.entries(FUNCTIONS)) {
    const deps = shared ?? (await composeDeps(await kubeConfigOf(name), opts.config, sinkOfFunctions));
    clients.add(deps.kcp);
    const host = await startFunctionHost(factory(deps), opts.log.child({ fn: name }));
    hosts.push(host);
    urls.set(name, host.url);
    inProcess.set(name, inProcessSubscriber(host));
  }
  const sink = (event: CloudEvent<unknown>) => {
    opts.onSourceEvent?.(event);
    return broker.publish(event);
  };
  const eventing = await readManifestDirectory(join(MANIFESTS_DIR, 'eventing'));
  const source = new LocalApiServerSource({
    kubeConfig: await kubeConfigOf('apiserver-source'),
    resources: apiServerSourcesOf(eventing),
    sink,
    log: opts.log.child({ component: 'apiserver-source' }),
  });
  await source.start();
  await source.ready();
  const pingSources = pingSourcesOf(eventing);
  const ping = new LocalPingSource({ sources: pingSources, sink, log: opts.log.child({ component: 'ping-source' }) });
  ping.start();
  // Without per-component identities the runtime watch, as the fleet below, shares the functions' client and so their
  // watch caches of the Kymas and the kubeconfig Secrets.
  const runtimeWatches = new RuntimeWatches({
    kcp: shared?.kcp ?? (await KubeClient.from(await kubeConfigOf('runtime-watch'))),
    sharedCaches: Boolean(shared),
    namespace: opts.config.kcpNamespace,
    sink,
    log: opts.log.child({ component: 'runtime-watch' }),
    execCommands: opts.config.kubeconfigExecCommands,
  });
  await runtimeWatches.start();
  // The fleet too (one copy of the Kymas and Manifests in this process, not two).
  const fleetClient = shared?.kcp ?? (await KubeClient.from(await kubeConfigOf('fleet')));
  const fleet = await startFleetService(
    fleetClient,
    opts.config.kcpNamespace,
    opts.log.child({ component: 'fleet' }),
    opts.config.fleetPort,
    '127.0.0.1',
    opts.config,
  );
  fleetUrl = fleet.url;
  const resync = () => Promise.all(pingSources.map((p) => ping.fireNow(p.name))).then(() => undefined);
  if (opts.resyncAtStart ?? true) await resync();
  return {
    broker,
    functions: urls,
    fleet,
    resync,
    runtimeWatching: (kyma) => runtimeWatches.watching(kyma),
    stop: async () => {
      ping.stop();
      await fleet.close();
      await runtimeWatches.stop();
      await source.stop();
      await broker.stop();
      await Promise.all(hosts.map((h) => h.close()));
      for (const client of clients) client.stopCaches();
      await stopTraceExport();
    },
  };
}
