// ServiceAccount identities on a real API server: a token from the TokenRequest API (via the real kubectl), as a
// Knative Service's pod would get mounted, turned into a kubeconfig the local runner's components act as.
import type { KubeConfig } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { loadKubeConfig, renderKubeconfig, type Cluster } from '../../local/controlplane/index.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { FUNCTIONS } from '../../local/runner/functions.ts';

const run = promisify(execFile);

/** Everything in manifests/ that runs under a ServiceAccount of its own. */
export const COMPONENTS = [...Object.keys(FUNCTIONS), 'apiserver-source', 'runtime-watch', 'fleet'];

export const serviceAccountOf = (component: string) => `lifecycle-${component}`;
export const usernameOf = (component: string) =>
  `system:serviceaccount:${KCP_NAMESPACE}:${serviceAccountOf(component)}`;

/** A kubeconfig acting as the component's ServiceAccount (which must exist), with a fresh bound token. */
export async function actAs(cluster: Cluster, kubectl: string, component: string): Promise<KubeConfig> {
  const { stdout } = await run(kubectl, [
    '--kubeconfig',
    cluster.kubeconfigPath,
    '-n',
    KCP_NAMESPACE,
    'create',
    'token',
    serviceAccountOf(component),
    '--duration=3h',
  ]);
  const caPem = await readFile(cluster.pki.caCert, 'utf8');
  return loadKubeConfig(
    renderKubeconfig({
      cluster: cluster.name,
      server: cluster.server,
      caPem,
      user: serviceAccountOf(component),
      token: stdout.trim(),
    }),
  );
}
