// The lifecycle manager as a separate operating-system process (`node local/start.ts` with KUBECONFIG, what
// `npm start` runs against an existing KCP), so a test can SIGKILL it mid-chain and start it again; and a World whose
// functions are not in the test's process.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HTTP, type CloudEvent } from 'cloudevents';
import { inject } from 'vitest';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { installCrds, lifecycleCrds } from '../../local/controlplane/crds.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import type { LocalRunner } from '../../local/runner/local-runner.ts';
import { getKyma, manifestsOf, type World } from '../e2e/world.ts';

const START = join(import.meta.dirname, '../../local/start.ts');
/** What local/start.ts prints once the runner is up (sources watching, resync at start sent). */
const READY_LINE = '[lifecycle] functions: ';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One running `node local/start.ts`: its output lines (stdout and stderr), and how it ended. */
export interface FunctionHostProcess {
  readonly pid: number;
  readonly lines: readonly string[];
  readonly exited: Promise<Exit>;
  /** Sends `signal` and waits until the process is gone. */
  stop(signal: NodeJS.Signals): Promise<Exit>;
}

/** The shared KCP's admin kubeconfig in a private temporary file, for a child process's KUBECONFIG. */
export async function kcpKubeconfigFile(): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'faults-kcp-'));
  const path = join(dir, 'kcp.kubeconfig');
  await writeFile(path, inject('controlPlane').kcp, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Starts the functions in a child process against the KCP of `kubeconfigPath` and resolves once it printed its
 * function URLs. Every output line also goes to the run's hygiene directory (test/secret-hygiene.test.ts scans it).
 */
export async function startFunctionHostProcess(kubeconfigPath: string, label: string): Promise<FunctionHostProcess> {
  const cp = inject('controlPlane');
  const env = {
    ...process.env,
    KUBECONFIG: kubeconfigPath,
    LIFECYCLE_OCI_REGISTRY: `http://${cp.registryHost}`,
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [START], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const record = createWriteStream(join(cp.hygieneDir, `log-faults-${label}-${process.pid}-${Date.now()}.jsonl`));
  const lines: string[] = [];
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise<void>((resolve, reject) => {
    collectLines(child, record, lines, (line) => {
      if (line.startsWith(READY_LINE)) resolve();
    });
    void exited.then((exit) =>
      reject(
        new Error(
          `function host ${label} exited before it was ready (${JSON.stringify(exit)}):\n${lines.slice(-20).join('\n')}`,
        ),
      ),
    );
  });
  await ready;
  return { pid: child.pid ?? 0, lines, exited, stop: (signal) => stopChild(child, exited, signal) };
}

function collectLines(child: ChildProcess, record: WriteStream, lines: string[], onLine: (line: string) => void): void {
  let open = 2;
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const reader = createInterface({ input: stream });
    reader.on('line', (line) => {
      lines.push(line);
      record.write(`${line}\n`);
      onLine(line);
    });
    reader.once('close', () => {
      if (--open === 0) record.end();
    });
  }
}

async function stopChild(child: ChildProcess, exited: Promise<Exit>, signal: NodeJS.Signals): Promise<Exit> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exited;
}

/** The counts of the resync function's "resync events sent" lines in a host's output (one per PingSource tick). */
export function resyncCounts(lines: readonly string[]): { Kyma: number; Manifest: number }[] {
  return lines.flatMap((line) => {
    const entry = jsonLine(line) as { msg?: string; Kyma?: number; Manifest?: number } | undefined;
    return entry?.msg === 'resync events sent' ? [{ Kyma: entry.Kyma ?? 0, Manifest: entry.Manifest ?? 0 }] : [];
  });
}

/** A pino line as an object; undefined for the `[lifecycle]` lines and a line cut short by SIGKILL. */
function jsonLine(line: string): unknown {
  try {
    return line.startsWith('{') ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a Kyma's chain stands on the KCP: its state and resourceVersion, and each Manifest's module, state and resourceVersion. */
export interface ChainState {
  kyma: { state: string | undefined; resourceVersion: string | undefined };
  manifests: { module: string | undefined; state: string | undefined; resourceVersion: string | undefined }[];
}

export async function chainState(world: World, kyma: string): Promise<ChainState> {
  const stored = await getKyma(world, kyma);
  const manifests = (await manifestsOf(world, kyma)).map((m) => ({
    module: m.metadata.labels?.[LABEL.moduleName],
    state: m.status?.state,
    resourceVersion: m.metadata.resourceVersion,
  }));
  return {
    kyma: { state: stored?.status?.state, resourceVersion: stored?.metadata.resourceVersion },
    manifests: manifests.sort((a, b) => String(a.module).localeCompare(String(b.module))),
  };
}

/**
 * A World for the e2e helpers (applyKyma, kymaInState, …) whose functions run elsewhere: the KCP with CRDs and
 * namespace, the runtimes and the registry — and no in-process runner (using one is a test bug and throws).
 */
export async function worldWithoutRunner(): Promise<World> {
  const cp = inject('controlPlane');
  const kcpConfig = loadKubeConfig(cp.kcp);
  await installCrds(kcpConfig);
  const kcp = await KubeClient.from(kcpConfig);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } }).catch(() => undefined);
  return {
    kcp,
    runtimes: await Promise.all(cp.runtimes.map((k) => KubeClient.from(loadKubeConfig(k)))),
    runtimeKubeconfigs: cp.runtimes,
    registry: new RegistryClient({ host: cp.registryHost, plainHttp: true }),
    get runner(): LocalRunner {
      throw new Error('the functions of this world run in a child process, not in the test');
    },
    events: [],
    kymaRuntime: new Map(),
    get logFile(): string {
      throw new Error('the functions of this world log in a child process');
    },
  };
}

/** Posts `event` to a function host as the broker does (binary mode) and answers the HTTP status. */
export async function postEvent(url: string, event: CloudEvent<unknown>): Promise<number> {
  const { headers, body } = HTTP.binary(event);
  const response = await fetch(url, {
    method: 'POST',
    headers: headers as Record<string, string>,
    body: body as string,
  });
  await response.text();
  return response.status;
}

/** The lifecycle Kyma CRD on shared runtime `runtime`, as aggregate-status syncs it (it does not run in such tests). */
export async function installRuntimeKymaCrd(runtime: number): Promise<void> {
  const kymaCrd = (await lifecycleCrds()).filter((crd) => crd.metadata?.name === 'kymas.operator.kyma-project.io');
  await installCrds(loadKubeConfig(inject('controlPlane').runtimes[runtime] ?? ''), kymaCrd);
}
