import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process of the control plane: its own process group, output in a log file, PID in the run dir. */
export interface ManagedProcess {
  readonly name: string;
  /** The PID of the current incarnation (a new one after `respawn`). */
  readonly pid: number;
  readonly logFile: string;
  /** Whether the process has exited (with the code or signal it exited with). */
  exit(): ProcessExit | undefined;
  stop(): Promise<void>;
  /** SIGKILL to the whole process group, as a crash would end it (no graceful shutdown); resolves once it exited. */
  kill(): Promise<void>;
  /**
   * Starts the process again after it exited (stop, kill or a crash): the same binary, arguments and environment, the
   * same log file (appended to) and PID file. Rejects while it still runs. For fault tests: a server restarted in place.
   */
  respawn(): Promise<void>;
}

export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

export interface ProcessSpec {
  name: string;
  bin: string;
  args: string[];
  runDir: string;
  env?: Record<string, string>;
}

export const pidDir = (runDir: string) => join(runDir, 'pids');

export async function startProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  const logFile = join(spec.runDir, 'logs', `${spec.name}.log`);
  await mkdir(join(spec.runDir, 'logs'), { recursive: true });
  await mkdir(pidDir(spec.runDir), { recursive: true });
  const pidFile = join(pidDir(spec.runDir), `${spec.name}.pid`);
  let run = await spawnRun(spec, logFile, pidFile);
  return {
    name: spec.name,
    logFile,
    get pid() {
      return run.pid;
    },
    exit: () => run.exited(),
    stop: async () => {
      if (!run.exited() && run.pid > 0) await terminateGroup(run.pid, run.gone);
      await rm(pidFile, { force: true });
    },
    kill: async () => {
      if (!run.exited() && run.pid > 0) {
        signalGroup(run.pid, 'SIGKILL');
        // The child is unref'ed: a timer keeps the event loop alive until its exit is seen.
        const keepAlive = setInterval(() => undefined, 1_000);
        await run.gone.finally(() => clearInterval(keepAlive));
      }
      await rm(pidFile, { force: true });
    },
    respawn: async () => {
      if (!run.exited()) throw new Error(`${spec.name} still runs (PID ${run.pid}); stop or kill it first`);
      await appendFile(logFile, `--- ${spec.name} respawned at ${new Date().toISOString()} ---\n`);
      run = await spawnRun(spec, logFile, pidFile);
    },
  };
}

/** One incarnation of a managed process. */
interface Run {
  readonly pid: number;
  /** Resolves when it has exited. */
  readonly gone: Promise<void>;
  exited(): ProcessExit | undefined;
}

/** Spawns the process as the leader of its own group, output appended to the log, its PID in the PID file. */
async function spawnRun(spec: ProcessSpec, logFile: string, pidFile: string): Promise<Run> {
  const fd = openSync(logFile, 'a');
  const child = spawn(spec.bin, spec.args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, ...spec.env },
  });
  closeSync(fd);
  let exited: ProcessExit | undefined;
  const gone = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.once('error', () => {
      exited = { code: -1, signal: null };
      resolve();
    });
  });
  child.unref();
  const pid = child.pid ?? -1;
  if (pid > 0) await writeFile(pidFile, String(pid));
  return { pid, gone, exited: () => exited };
}

/** SIGTERM to the whole process group, SIGKILL after 10 s. */
async function terminateGroup(pid: number, gone: Promise<void>): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  const timedOut = await Promise.race([gone.then(() => false), sleep(10_000).then(() => true)]);
  if (timedOut) {
    signalGroup(pid, 'SIGKILL');
    await gone;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The last lines of a process log, for error messages. */
export async function logTail(proc: ManagedProcess, lines = 15): Promise<string> {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Polls `probe` until it returns true. Fails early when `proc` exits, and after `timeoutMs`, with the
 * process log's tail in the message.
 */
export async function waitUntil(
  what: string,
  probe: () => Promise<boolean>,
  proc: ManagedProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    const exit = proc.exit();
    if (exit) {
      throw new Error(`${proc.name} exited (${exit.code ?? exit.signal}) before ${what}:\n${await logTail(proc)}`);
    }
    await sleep(150);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s; ${proc.name} log tail:\n${await logTail(proc)}`);
}
