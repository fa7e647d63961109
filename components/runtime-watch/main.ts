// `npm run runtime-watch`: the runtime → KCP notifier as its own long-lived process. On Knative it runs as one
// Deployment next to the ApiServerSource adapter (KCP kubeconfig: in-cluster or KUBECONFIG; read access to the
// kubeconfig Secrets in LIFECYCLE_KCP_NAMESPACE; K_SINK = the broker ingress). See docs/adr/0009-runtime-side.md.
import { KubeConfig } from '../../shared/kube/kubeconfig.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { httpSink } from '../../shared/host/sink.ts';
import { RuntimeWatches } from './runtime-watches.ts';

const config = readConfig();
const log = createLogger('runtime-watch', config.logLevel);
if (!config.sinkUrl) {
  log.error('K_SINK is not set: the runtime watch needs the broker ingress to send its events to');
  process.exit(2);
}
const kc = new KubeConfig();
kc.loadFromDefault();
const watches = new RuntimeWatches({
  kcp: await KubeClient.from(kc),
  namespace: config.kcpNamespace,
  sink: httpSink(config.sinkUrl),
  log,
  execCommands: config.kubeconfigExecCommands,
});
await watches.start();
log.info({ namespace: config.kcpNamespace }, 'watching the runtime Kyma of every kubeconfig Secret');
const stop = () => void watches.stop().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
