// What `npm start` runs (bundled by local/launch.ts): the lifecycle manager on the embedded local control plane (KCP +
// runtime + OCI registry, real processes, a sample module and a Kyma), or — with KUBECONFIG set — the same runner
// against that cluster.
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runFleetCommand } from '../tools/fleet/cli/command.ts';
import { announceEmbeddedKcp } from '../tools/fleet/cli/kubeconfig.ts';
import { readConfig } from '../shared/host/config.ts';
import { KubeConfig } from '../shared/kube/kubeconfig.ts';
import { locateBinaries } from './controlplane/binaries.ts';
import { createLogger } from '../shared/host/logger.ts';
import { startLocalRunner } from './runner/local-runner.ts';

const say = (line: string) => console.log(`[lifecycle] ${line}`);
const config = readConfig();
let stop: () => Promise<void>;

if (config.kubeconfigPath) {
  // The functions' own kubeconfig reader: the embedded control plane's tooling (client-node) stays unloaded (ADR 42).
  const kcp = new KubeConfig();
  kcp.loadFromFile(config.kubeconfigPath);
  say(
    `running the functions against the cluster of KUBECONFIG (context ${kcp.getCurrentContext()}, namespace ${config.kcpNamespace})`,
  );
  // Charts (ADR 22) render with the helm built next to the test binaries unless LIFECYCLE_HELM_BINARY names one.
  const helmBinary = config.helmBinary ?? (await locateBinaries()).helm;
  const runner = await startLocalRunner({
    kcp,
    config: { ...config, helmBinary },
    log: createLogger('lifecycle', config.logLevel),
  });
  say(`functions: ${[...runner.functions.entries()].map(([n, u]) => `${n} ${u}`).join(', ')}`);
  say(`fleet:    ${runner.fleet.url}/metrics, ${runner.fleet.url}/api/fleet, ${runner.fleet.url}/api/kymas/<name>`);
  stop = () => runner.stop();
} else {
  say('starting the embedded control plane (the first run builds the Kubernetes binaries: about 8 minutes)');
  const { followKyma, SAMPLE_KYMA, startEmbedded } = await import('./embedded.ts');
  const { plane, runner, kcp } = await startEmbedded(config, say);
  const runtime = plane.runtimes[0];
  await announceEmbeddedKcp({ kubeconfig: plane.kcp.kubeconfigPath, fleet: runner.fleet.url });
  say(`kubectl:  export PATH=${dirname(plane.binaries.kubectl)}:$PATH   (or ./dev kubectl …, which talks to this KCP)`);
  say(
    `KCP:      kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kcp-system get kymas,manifests,moduletemplates,modulereleasemetas`,
  );
  const upgrade = `--type merge -p '{"spec":{"modules":[{"name":"sample","channel":"fast"}]}}'`;
  if (config.inCluster) {
    // Single-cluster mode (ADR 21): the module lives in the KCP, and the KCP Kyma is the one to edit.
    say(`modules:  kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kyma-system get deployments,samples`);
    say(
      `try:      kubectl --kubeconfig ${plane.kcp.kubeconfigPath} -n kcp-system patch kyma ${SAMPLE_KYMA} ${upgrade}`,
    );
  } else if (runtime) {
    say(`runtime:  kubectl --kubeconfig ${runtime.kubeconfigPath} -n kyma-system get deployments,samples`);
    say(`try:      kubectl --kubeconfig ${runtime.kubeconfigPath} -n kyma-system patch kyma default ${upgrade}`);
  }
  say(`functions: ${[...runner.functions.entries()].map(([n, u]) => `${n} ${u}`).join(', ')}`);
  say(`fleet:    ${runner.fleet.url}/metrics, ${runner.fleet.url}/api/fleet, ${runner.fleet.url}/api/kymas/<name>`);
  say('CLI:      npx kyma-lifecycle-functions status   (and: why <kyma> [module])');
  const ready = followKyma(kcp, say).then(
    () => true,
    (error: unknown) => {
      say(`cannot follow Kyma ${SAMPLE_KYMA} any more: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
  );
  if (!(await Promise.race([ready, sleep(config.embeddedWhySeconds * 1000).then(() => false)])))
    await explainSampleKyma(runner.fleet.url, SAMPLE_KYMA);
  say('running; Ctrl-C stops everything and removes the clusters');
  stop = async () => {
    await announceEmbeddedKcp(undefined);
    await runner.stop();
    await plane.stop();
  };
}

/** The sample Kyma is not Ready in time: what blocks it, as `why` tells it (following goes on). */
async function explainSampleKyma(fleet: string, kyma: string): Promise<void> {
  say(
    `Kyma ${kyma} is not Ready after ${config.embeddedWhySeconds} s; what blocks it (npx kyma-lifecycle-functions why ${kyma}):`,
  );
  const print = (text: string) => {
    for (const line of text.trimEnd().split('\n')) say(`  ${line}`);
  };
  await runFleetCommand(['why', kyma, '--fleet', fleet], { stdout: print, stderr: print, kubeconfigEnv: undefined });
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
