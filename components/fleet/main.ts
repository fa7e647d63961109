// `npm run fleet`: the fleet component as its own long-lived process (ADR 19). On Knative it runs as a Service with
// min-scale = max-scale = 1 (manifests/fleet): Prometheus scrapes /metrics; the page is at /, `why` and the summary under /api.
import { KubeConfig } from '../../shared/kube/kubeconfig.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { startFleetService } from './service.ts';

const config = readConfig();
const log = createLogger('fleet', config.logLevel);
const kc = new KubeConfig();
kc.loadFromDefault();
const fleet = await startFleetService(
  await KubeClient.from(kc),
  config.kcpNamespace,
  log,
  config.port,
  '0.0.0.0',
  config,
);
log.info({ namespace: config.kcpNamespace, url: fleet.url }, 'fleet: /metrics, /api/fleet, /api/kymas/<name>');
const stop = () => void fleet.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
