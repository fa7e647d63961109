import { KubeConfig } from '../kube/kubeconfig.ts';
import { countRequests } from '../kube/request-tally.ts';
import { composeDeps } from './compose.ts';
import { readConfig } from './config.ts';
import type { FunctionDeps } from './deps.ts';
import { startFunctionHost } from './host.ts';
import type { LifecycleFunction } from './invoke.ts';
import { createLogger } from './logger.ts';
import { startTraceExport, stopTraceExport } from './otel.ts';
import { httpSink } from './sink.ts';

/** `npm start` of a function folder, what its Knative Service runs (ADR 12): in-cluster (or KUBECONFIG) client, broker
 * ingress from K_SINK for fan-out, the HTTP host on $PORT; SIGTERM closes it. */
export async function serve(factory: (deps: FunctionDeps) => LifecycleFunction): Promise<void> {
  const config = readConfig();
  if (config.countRequests) countRequests(true);
  const kc = new KubeConfig();
  kc.loadFromDefault();
  const sinkUrl = config.sinkUrl;
  const sink = sinkUrl
    ? httpSink(sinkUrl)
    : async () => {
        throw new Error('K_SINK is not set: this function cannot fan out events');
      };
  const fn = factory(await composeDeps(kc, config, sink));
  const log = createLogger(fn.name, config.logLevel);
  await startTraceExport(config.traces);
  const host = await startFunctionHost(fn, log, config.port, '0.0.0.0', config.callsAtOnce);
  log.info({ url: host.url, traces: config.traces && new URL(config.traces.url).origin }, `${fn.name} serving`);
  process.once(
    'SIGTERM',
    () =>
      void host
        .close()
        .then(stopTraceExport)
        .then(() => process.exit(0)),
  );
}
