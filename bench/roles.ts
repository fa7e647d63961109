// Where the CPU and memory of a --engine knative run go, by role: the function processes (`<function>-<n>`),
// Knative Eventing's pods (`knative-<namespace>-<deployment>`), each summed. Pure.
import { FUNCTIONS } from '../local/runner/functions.ts';
import type { ProcessUsage } from './process-usage.ts';

/** `<function>-<n>`, as local/knative/function-pods.ts names each instance. */
const isFunctionProcess = (name: string) => Object.hasOwn(FUNCTIONS, /^(.+)-\d+$/.exec(name)?.[1] ?? '');

/** PURE. The role a process of the run has, or undefined for the clusters' own (apiservers, etcds, kwok). */
export function roleOf(name: string): 'functions' | 'knative' | undefined {
  if (isFunctionProcess(name)) return 'functions';
  if (name.startsWith('knative-')) return 'knative';
  return undefined;
}

/** PURE. CPU seconds and the sum of peak RSS per role (peaks of different processes summed: an upper bound). */
export function usageByRole(
  processes: Readonly<Record<string, ProcessUsage>>,
): Record<string, { processes: number; cpuSeconds: number; peakRssBytes: number }> {
  const out: Record<string, { processes: number; cpuSeconds: number; peakRssBytes: number }> = {};
  for (const [name, usage] of Object.entries(processes)) {
    const role = roleOf(name);
    if (!role) continue;
    const sum = (out[role] ??= { processes: 0, cpuSeconds: 0, peakRssBytes: 0 });
    sum.processes += 1;
    sum.cpuSeconds += usage.cpuSeconds;
    sum.peakRssBytes += usage.peakRssBytes;
  }
  return out;
}
