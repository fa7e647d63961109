// The local ApiServerSource (Resource mode): watches resources of a cluster and sends Knative's
// `dev.knative.apiserver.resource.{add,update,delete}` CloudEvents to a sink, e.g. the local broker.
import type { ClusterConfig } from '../../shared/kube/kubeconfig.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { ResourceWatch, type WatchedResource } from '../../shared/kube/resource-watch.ts';
import type { EventSink } from '../../shared/host/sink.ts';
import { defaultLog, type EventingLog } from './log.ts';

export {
  apiServerSourcesOf,
  labelSelectorText,
  parseApiServerSources,
  type WatchedResource,
} from './apiserver-source-spec.ts';

export interface LocalApiServerSourceOptions {
  /** The cluster to watch: its kubeconfig, or a client made already (shared with others of this process). */
  readonly kubeConfig?: ClusterConfig;
  readonly client?: KubeClient;
  readonly resources: readonly WatchedResource[];
  readonly sink: EventSink;
  readonly log?: EventingLog;
  /** Also send an `add` event for every object a (re)list finds, like an informer's initial sync. Off by default
   * (the KCP source relies on resync instead); the runtime watches use it so an edit made while a watch was down
   * (e.g. before the runtime had the Kyma CRD) is not missed. */
  readonly announceExisting?: boolean;
}

export class LocalApiServerSource {
  private readonly options: LocalApiServerSourceOptions;
  private readonly log: EventingLog;
  private watches: ResourceWatch[] = [];
  private readonly allEstablished: Promise<void>;
  private markStarted: (watches: ResourceWatch[]) => void = () => undefined;

  constructor(options: LocalApiServerSourceOptions) {
    this.options = options;
    this.log = options.log ?? defaultLog('local-apiserver-source');
    this.allEstablished = new Promise<ResourceWatch[]>((resolve) => (this.markStarted = resolve)).then(
      async (watches) => {
        await Promise.all(watches.map((w) => w.established));
      },
    );
  }

  /** Starts one watch per resource (one event stream each, sunk in order). */
  async start(): Promise<void> {
    if (this.watches.length > 0) throw new Error('the ApiServerSource is already started');
    const { kubeConfig, sink, resources } = this.options;
    const client = this.options.client ?? (kubeConfig ? await KubeClient.from(kubeConfig) : undefined);
    if (!client) throw new Error('the ApiServerSource has neither a kubeconfig nor a client');
    const source = client.server;
    this.watches = resources.map(
      (resource) =>
        new ResourceWatch({
          client,
          resource,
          source,
          sink,
          log: this.log,
          announceExisting: this.options.announceExisting ?? false,
        }),
    );
    for (const watch of this.watches) watch.start();
    this.markStarted(this.watches);
  }

  /** Resolves once every watch is open: changes from then on produce events. */
  ready(): Promise<void> {
    return this.allEstablished;
  }

  /** Closes the watches and waits until every event already seen has been sent. */
  async stop(): Promise<void> {
    await Promise.all(this.watches.map((watch) => watch.stop()));
  }
}
