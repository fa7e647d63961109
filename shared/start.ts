// `npm start`: the lifecycle manager on the embedded local control plane (KCP + runtime + OCI registry, real
// processes, a sample module and a Kyma), or — with KUBECONFIG set — the same runner against that cluster.
import { readFile } from 'node:fs/promises';
import { announceEmbeddedKcp } from './cli/kubeconfig.ts';
import { loadKubeConfig } from './controlplane/index.ts';
import { SAMPLE_KYMA, startEmbedded } from './embedded.ts';
import { readConfig } from './runtime/config.ts';
import { locateBinaries } from './controlplane/binaries.ts';
import { createLogger } from './runtime/logger.ts';
import { startLocalRunner } from './runner/local-runner.ts';

const say = (line: string) => console.log(`[lifecycle] ${line}`);
const config = readConfig();
let stop: () => Promise<void>;

if (config.kubeconfigPath) {
  const kcp = loadKubeConfig(await readFile(config.kubeconfigPath, 'utf8'));
  say(`running the functions against the cluster of KUBECONFIG (context ${kcp.getCurrentContext()}, namespace ${config.kcpNamespace})`);
  // Charts (ADR 22) render with the helm built next to the test binaries unless LIFECYCLE_HELM_BINARY names one.
  const helmBinary = config.helmBinary ?? (await locateBinaries()).helm;
  const runner = await startLocalRunner({ kcp, config: { ...config, helmBinary }, log: createLogger('lifecycle', config.logLevel) });
  say(`functions: ${[...runner.functions.entries()].map(([n, u]) => `${n} ${u}`).join(', ')}`);
  say(`fleet:    ${runner.fleet.url}/metrics, ${runner.fleet.url}/api/fleet, ${runner.fleet.url}/api/kymas/<name>`);
  stop = () => runner.stop();
} else {
  say('starting the embedded control plane (the first run builds the Kubernetes binaries: about 8 minutes)');
  const { plane, runner } = await startEmbedded(config, say);
  const runtime = plane.runtimes[0];
  say(`kubectl:  ${plane.binaries.kubectl}`);
  say(`KCP:      kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kcp-system get kymas,manifests,moduletemplates,modulereleasemetas`);
  const upgrade = `--type merge -p '{"spec":{"modules":[{"name":"sample","channel":"fast"}]}}'`;
  if (config.inCluster) {
    // Single-cluster mode (ADR 21): the module lives in the KCP, and the KCP Kyma is the one to edit.
    say(`modules:  kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kyma-system get deployments,samples`);
    say(`try:      kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kcp-system patch kyma ${SAMPLE_KYMA} ${upgrade}`);
  } else if (runtime) {
    say(`runtime:  kubectl --kubeconfig ${runtime.kubeconfigPath} -n kyma-system get deployments,samples`);
    say(`try:      kubectl --kubeconfig ${runtime.kubeconfigPath} -n kyma-system patch kyma default ${upgrade}`);
  }
  say(`functions: ${[...runner.functions.entries()].map(([n, u]) => `${n} ${u}`).join(', ')}`);
  await announceEmbeddedKcp({ kubeconfig: plane.kcp.kubeconfigPath, fleet: runner.fleet.url });
  say(`fleet:    ${runner.fleet.url}/metrics, ${runner.fleet.url}/api/fleet, ${runner.fleet.url}/api/kymas/<name>`);
  say('CLI:      npx kyma-lifecycle-functions status   (and: why <kyma> [module])');
  say('running; Ctrl-C stops everything and removes the clusters');
  stop = async () => {
    await announceEmbeddedKcp(undefined);
    await runner.stop();
    await plane.stop();
  };
}

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  say('stopping');
  void stop().finally(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
setInterval(() => undefined, 1 << 30);
