import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The real binaries the control plane runs, by name. */
export const BINARY_NAMES = [
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
  'etcd',
  'kwok',
  'oras',
  'registry',
  'helm',
] as const;
export type BinaryName = (typeof BINARY_NAMES)[number];
export type Binaries = Record<BinaryName, string>;

const buildScript = fileURLToPath(new URL('./build-binaries.sh', import.meta.url));

/**
 * Finds the test binaries: KUBEBUILDER_ASSETS when set, else the versioned cache, building what is missing
 * from Go modules first (progress goes to stderr). Fails with the script's own explanation.
 */
export async function locateBinaries(): Promise<Binaries> {
  const dir = await runBuildScript();
  return Object.fromEntries(BINARY_NAMES.map((name) => [name, `${dir}/${name}`])) as Binaries;
}

/** Prometheus, promtool and Jaeger (the alert, dashboard and trace tests), built like the others into a directory of
 * their own. */
export async function locateMonitoringBinaries(): Promise<{ prometheus: string; promtool: string; jaeger: string }> {
  const dir = await runBuildScript('monitoring');
  return { prometheus: `${dir}/prometheus`, promtool: `${dir}/promtool`, jaeger: `${dir}/jaeger` };
}

function runBuildScript(forWhat?: 'monitoring'): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [buildScript, ...(forWhat ? [forWhat] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const dir = out.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) resolve(dir);
      else reject(new Error(`test binaries unavailable (build-binaries.sh exited ${code}); see the messages above`));
    });
  });
}
