// Where the fleet CLI reads from: --fleet (the fleet component), else --kubeconfig, else $KUBECONFIG, else what a
// running `./dev start` announced in .run/embedded-kcp (its fleet component's URL and its KCP kubeconfig's path).
// `plan` reads the KCP itself: it takes the announced kubeconfig (never the fleet component).
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../../../shared/host/input-rules.ts';

const POINTER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '.run', 'embedded-kcp');

interface Announcement {
  kubeconfig: string;
  fleet: string;
}

/** The embedded control plane tells the CLI where its KCP and fleet component are (removed again when it stops). */
export async function announceEmbeddedKcp(announcement: Announcement | undefined): Promise<void> {
  if (announcement === undefined) return rm(POINTER, { force: true });
  await mkdir(dirname(POINTER), { recursive: true });
  await writeFile(POINTER, `${JSON.stringify(announcement)}\n`);
}

export type KcpSource = { fleet: string } | { kubeconfigPath: string; kubeconfig: string };

type Flags = { kubeconfig: string | undefined; fleet: string | undefined };
/** `kcp`: the command reads the KCP itself (plan), so an announcement gives its kubeconfig, never its fleet component. */
type Reads = 'kcp' | 'kcp-or-fleet';

/** PURE. --fleet, else --kubeconfig, else $KUBECONFIG's first file, else the announcement (undefined: no source). */
export function chooseKcp(
  flags: Flags,
  env: string | undefined,
  announced: Partial<Announcement> | undefined,
  reads: Reads,
): { fleet: string } | { path: string; given: boolean } | undefined {
  if (flags.fleet && reads === 'kcp-or-fleet') return { fleet: flags.fleet };
  const given = flags.kubeconfig || env?.split(':')[0];
  if (given) return { path: given, given: true };
  if (announced?.fleet && reads === 'kcp-or-fleet') return { fleet: announced.fleet };
  return announced?.kubeconfig ? { path: announced.kubeconfig, given: false } : undefined;
}

/** The source to read; an InputError saying how to get one when there is none. */
export async function locateKcp(
  flags: Flags,
  env: string | undefined,
  reads: Reads = 'kcp-or-fleet',
): Promise<KcpSource> {
  const choice = chooseKcp(flags, env, await readAnnouncement(), reads);
  if (choice && 'fleet' in choice) return choice;
  if (!choice)
    throw new InputError(
      `no KCP: pass --kubeconfig${reads === 'kcp' ? '' : ' or --fleet'}, set KUBECONFIG, or start the embedded control plane with ./dev start`,
    );
  const kubeconfig = await readFile(choice.path, 'utf8').catch(() => undefined);
  if (kubeconfig === undefined)
    throw new InputError(
      `cannot read the kubeconfig ${choice.path}${choice.given ? '' : ' (the embedded control plane is not running any more? ./dev start)'}`,
    );
  return { kubeconfigPath: choice.path, kubeconfig };
}

async function readAnnouncement(): Promise<Partial<Announcement> | undefined> {
  try {
    return JSON.parse(await readFile(POINTER, 'utf8')) as Partial<Announcement>;
  } catch {
    return undefined;
  }
}
