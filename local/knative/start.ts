// `./dev start:knative`: the embedded control plane (KCP + one runtime + registry) with Knative Eventing's own parts
// routing the events (runner.ts), the sample module and a Kyma asking for it. Runs inside cluster-network.sh (start.sh
// puts it there): its clusters are reachable only from inside that namespace, so it prints the nsenter prefix that
// runs a command there.
import { pino } from 'pino';
import { join } from 'node:path';
import { startControlPlane } from '../controlplane/index.ts';
import { createRemoteKyma, followKyma, publishSample } from '../embedded.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { startKnativeRunner } from './runner.ts';

const say = (line: string) => console.log(`[lifecycle/knative] ${line}`);
const [knativeDir = '', hostsFile = ''] = process.argv.slice(2);
const config = readConfig();
const plane = await startControlPlane({ runtimes: 1, kcpWorkloads: true, progress: say });
const kcpConfig = plane.kcp.kubeConfig();
const log = createLogger(
  'lifecycle',
  config.logLevel,
  pino.destination({ dest: join(plane.runDir, 'logs', 'lifecycle-functions.log'), sync: false, mkdir: true }),
);
const runner = await startKnativeRunner({
  kcp: kcpConfig,
  kubeconfigPath: plane.kcp.kubeconfigPath,
  kubeconfigFor: (u, g) => plane.kcp.kubeconfigFor(u, g),
  kubectl: plane.binaries.kubectl,
  knativeDir,
  runDir: plane.runDir,
  hostsFile,
  log,
  progress: say,
  config: {
    ...config,
    helmBinary: config.helmBinary ?? plane.binaries.helm,
    registry: { ...config.registry, base: plane.registry?.host ?? '', plainHttp: true, credentialSecret: undefined },
  },
});
const kcp = await KubeClient.from(kcpConfig);
await publishSample(kcp, plane.registry?.host ?? '', say);
await createRemoteKyma(kcp, plane, say);
const inside = `nsenter --target ${process.pid} --user --net --mount --preserve-credentials`;
say(
  `Knative: ${runner.eventing.kubelet
    .running()
    .map((p) => p.process.name.replace(/^knative-/, ''))
    .join(', ')} (logs: ${plane.runDir}/logs)`,
);
say(`kubectl (the clusters live in a network namespace of their own; run commands there with nsenter):`);
say(
  `  ${inside} ${plane.binaries.kubectl} --kubeconfig ${plane.kcp.kubeconfigPath} -n kcp-system get brokers,triggers,apiserversources,pingsources,kymas`,
);
say(
  `  ${inside} ${plane.binaries.kubectl} --kubeconfig ${plane.runtimes[0]?.kubeconfigPath ?? ''} -n kyma-system get deployments,kymas`,
);
await followKyma(kcp, say);
say('running; Ctrl-C stops everything and removes the clusters');

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  say('stopping');
  void runner
    .stop()
    .then(() => plane.stop())
    .finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
setInterval(() => undefined, 1 << 30);
