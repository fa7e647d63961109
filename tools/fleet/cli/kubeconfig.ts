// Where the fleet CLI reads from: --fleet (the fleet component), else --kubeconfig, else $KUBECONFIG, else what a
// running `./dev start` announced in .run/embedded-kcp (its fleet component's URL and its KCP kubeconfig's path).
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../module/cli/rules.ts';

const POINTER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '.run', 'embedded-kcp');

interface Announcement { kubeconfig: string; fleet: string }

/** The embedded control plane tells the CLI where its KCP and fleet component are (removed again when it stops). */
export async function announceEmbeddedKcp(announcement: Announcement | undefined): Promise<void> {
  if (announcement === undefined) return rm(POINTER, { force: true });
  await mkdir(dirname(POINTER), { recursive: true });
  await writeFile(POINTER, `${JSON.stringify(announcement)}\n`);
}

export type KcpSource = { fleet: string } | { kubeconfigPath: string; kubeconfig: string };

/** The source to read; an InputError saying how to get one when there is none. */
export async function locateKcp(flags: { kubeconfig: string | undefined; fleet: string | undefined }, env: string | undefined): Promise<KcpSource> {
  if (flags.fleet) return { fleet: flags.fleet };
  const given = flags.kubeconfig || env?.split(':')[0];
  const announced = given ? undefined : await readAnnouncement();
  if (announced?.fleet) return { fleet: announced.fleet };
  const path = given || announced?.kubeconfig;
  if (!path) throw new InputError('no KCP: pass --kubeconfig or --fleet, set KUBECONFIG, or start the embedded control plane with ./dev start');
  const kubeconfig = await readFile(path, 'utf8').catch(() => undefined);
  if (kubeconfig === undefined) throw new InputError(`cannot read the kubeconfig ${path}${given ? '' : ' (the embedded control plane is not running any more? ./dev start)'}`);
  return { kubeconfigPath: path, kubeconfig };
}

async function readAnnouncement(): Promise<Partial<Announcement> | undefined> {
  try {
    return JSON.parse(await readFile(POINTER, 'utf8')) as Partial<Announcement>;
  } catch {
    return undefined;
  }
}
