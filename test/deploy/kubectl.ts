// The real kubectl (built with the test binaries), run against one cluster, optionally fed on stdin.
import { spawn } from 'node:child_process';
import type { Cluster } from '../../local/controlplane/index.ts';
import { testBinaries } from './audited-kcp.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(args: string[], opts: { cluster?: Cluster; stdin?: string } = {}): Promise<KubectlResult> {
  const full = opts.cluster ? ['--kubeconfig', opts.cluster.kubeconfigPath, ...args] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(testBinaries().kubectl, full, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}

/** kubectl, failing with its stderr unless it exits 0. */
export async function kubectlOk(args: string[], opts: { cluster?: Cluster; stdin?: string } = {}): Promise<string> {
  const result = await kubectl(args, opts);
  if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  return result.stdout;
}
