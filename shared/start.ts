// `npm start`: the embedded local control plane (KCP + runtimes + OCI registry, real processes) with the
// lifecycle CRDs installed, or — with KUBECONFIG set — the same setup step against that cluster.
import { loadKubeConfig, startControlPlane } from './controlplane/index.ts';
import { installCrds } from './k8s/crds.ts';
import { readConfig } from './runtime/config.ts';
import { readFile } from 'node:fs/promises';

const say = (line: string) => console.log(`[lifecycle] ${line}`);
const config = readConfig();

if (config.kubeconfigPath) {
  const kcp = loadKubeConfig(await readFile(config.kubeconfigPath, 'utf8'));
  say(`using the cluster of KUBECONFIG (context ${kcp.getCurrentContext()})`);
  await installCrds(kcp);
  say('lifecycle CRDs installed and Established');
} else {
  say('starting the embedded control plane (first run builds the Kubernetes binaries, 5-15 min)');
  const plane = await startControlPlane({ runtimes: config.embeddedRuntimes, progress: say });
  await installCrds(plane.kcp.kubeConfig());
  say('lifecycle CRDs installed on the KCP');
  say(`KCP:       kubectl --kubeconfig ${plane.kcp.kubeconfigPath} get kymas -A`);
  for (const runtime of plane.runtimes) say(`${runtime.name}: kubectl --kubeconfig ${runtime.kubeconfigPath} get pods -A`);
  if (plane.registry) say(`registry:  ${plane.registry.url} (oras: ${plane.binaries.oras} --plain-http …)`);
  say(`kubectl:   ${plane.binaries.kubectl}`);
  say('running; press Ctrl-C to stop and remove everything');
  const stop = async () => {
    say('stopping');
    await plane.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  setInterval(() => undefined, 1 << 30);
}
