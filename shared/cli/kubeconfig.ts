// Which KCP the fleet CLI reads: --kubeconfig, else $KUBECONFIG, else the embedded control plane a running
// `./dev start` announced in .run/embedded-kcp (the path of its KCP kubeconfig).
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../module/cli/rules.ts';

const POINTER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.run', 'embedded-kcp');

/** The embedded control plane tells the CLI where its KCP is (removed again when it stops). */
export async function announceEmbeddedKcp(kubeconfigPath: string | undefined): Promise<void> {
  if (kubeconfigPath === undefined) return rm(POINTER, { force: true });
  await mkdir(dirname(POINTER), { recursive: true });
  await writeFile(POINTER, `${kubeconfigPath}\n`);
}

/** The kubeconfig text to use; an InputError saying how to get one when there is none. */
export async function kcpKubeconfig(flag: string | undefined, env: string | undefined): Promise<{ path: string; text: string }> {
  const path = flag || env?.split(':')[0] || (await readFile(POINTER, 'utf8').catch(() => '')).trim();
  if (!path) throw new InputError('no KCP: pass --kubeconfig, set KUBECONFIG, or start the embedded control plane with ./dev start');
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) throw new InputError(`cannot read the kubeconfig ${path}${path === flag || path === env ? '' : ' (the embedded control plane is not running any more? ./dev start)'}`);
  return { path, text };
}
