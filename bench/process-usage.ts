import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { promisify } from 'node:util';

/** CPU and memory of one process: CPU seconds (user + system) so far, current and peak resident set. */
export interface ProcessUsage {
  cpuSeconds: number;
  rssBytes: number;
  peakRssBytes: number;
}

/** The fields of `/proc/<pid>/stat` a benchmark needs; CPU times in clock ticks. */
export interface ProcStat {
  comm: string;
  state: string;
  utimeTicks: number;
  stimeTicks: number;
}

/** Parses `/proc/<pid>/stat`: the command name may hold spaces and parentheses, so fields count from the last `)`. */
export function parseStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  // After the comm: field 3 (state) is index 0, so utime (field 14) is index 11 and stime (field 15) index 12.
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const [utimeTicks, stimeTicks] = [Number(fields[11]), Number(fields[12])];
  if (!Number.isFinite(utimeTicks) || !Number.isFinite(stimeTicks))
    throw new Error('/proc/<pid>/stat without utime/stime');
  return { comm: text.slice(open + 1, close), state: fields[0] ?? '', utimeTicks, stimeTicks };
}

/** Parses `/proc/<pid>/status` for VmRSS and VmHWM (kB in the file, bytes here; 0 when absent, e.g. a zombie). */
export function parseStatus(text: string): { rssBytes: number; peakRssBytes: number } {
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { rssBytes: kib('VmRSS'), peakRssBytes: kib('VmHWM') };
}

let ticksPerSecond: Promise<number> | undefined;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, asked once; 100 when that fails). */
export function clockTicksPerSecond(): Promise<number> {
  ticksPerSecond ??= promisify(execFile)('getconf', ['CLK_TCK'])
    .then(({ stdout }) => Number(stdout.trim()) || 100)
    .catch(() => 100);
  return ticksPerSecond;
}

/** Usage of a running process from `/proc` (Linux only); undefined when the process is gone. Children not included. */
export async function readProcessUsage(pid: number): Promise<ProcessUsage | undefined> {
  try {
    const [stat, status] = await Promise.all([
      readFile(`/proc/${pid}/stat`, 'utf8'),
      readFile(`/proc/${pid}/status`, 'utf8'),
    ]);
    const { utimeTicks, stimeTicks } = parseStat(stat);
    return { cpuSeconds: (utimeTicks + stimeTicks) / (await clockTicksPerSecond()), ...parseStatus(status) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ESRCH')
      return undefined;
    throw e;
  }
}

/** Usage of this Node process: `process.cpuUsage()`, current RSS and `resourceUsage().maxRSS` (KiB). */
export function selfUsage(): ProcessUsage {
  const { user, system } = process.cpuUsage();
  return {
    cpuSeconds: (user + system) / 1e6,
    rssBytes: process.memoryUsage.rss(),
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/** CPU seconds spent between two readings; memory as of the later one (the peak never goes down). */
export function usageDelta(before: ProcessUsage, after: ProcessUsage): ProcessUsage {
  return {
    cpuSeconds: Math.max(0, after.cpuSeconds - before.cpuSeconds),
    rssBytes: after.rssBytes,
    peakRssBytes: Math.max(before.peakRssBytes, after.peakRssBytes),
  };
}

/** What this process holds at a moment: open sockets (connections and watches to the API servers, the functions' and
 * the broker's HTTP), and the V8 heap and memory outside it (buffers, TLS), in MiB. */
export interface Footprint {
  sockets: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
}

/** Bytes in whole MiB. */
export const mib = (n: number) => Math.round(n / 1024 / 1024);

export async function selfFootprint(): Promise<Footprint> {
  const fds = await readdir('/proc/self/fd').catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  const { heapUsed, heapTotal, external } = process.memoryUsage();
  return {
    sockets: links.filter((l) => l.startsWith('socket:')).length,
    heapUsedMiB: mib(heapUsed),
    heapTotalMiB: mib(heapTotal),
    externalMiB: mib(external),
  };
}
