// Where the CPU and memory of a --engine knative run go, by role: the function processes (`<function>-<n>`),
// Knative Eventing's pods (`knative-<namespace>-<deployment>`), each summed. Pure.
import type { ProcessUsage } from './process-usage.ts';

const FUNCTION_PROCESS = /^(aggregate-status|apply-remote|purge|render-manifest|resolve-template|resync)-\d+$/;

/** PURE. The role a process of the run has, or undefined for the clusters' own (apiservers, etcds, kwok). */
export function roleOf(name: string): 'functions' | 'knative' | undefined {
  if (FUNCTION_PROCESS.test(name)) return 'functions';
  if (name.startsWith('knative-')) return 'knative';
  return undefined;
}

/** PURE. CPU seconds and the sum of peak RSS per role (peaks of different processes summed: an upper bound). */
export function usageByRole(processes: Readonly<Record<string, ProcessUsage>>): Record<string, { processes: number; cpuSeconds: number; peakRssBytes: number }> {
  const out: Record<string, { processes: number; cpuSeconds: number; peakRssBytes: number }> = {};
  for (const [name, usage] of Object.entries(processes)) {
    const role = roleOf(name);
    if (!role) continue;
    const sum = out[role] ??= { processes: 0, cpuSeconds: 0, peakRssBytes: 0 };
    sum.processes += 1;
    sum.cpuSeconds += usage.cpuSeconds;
    sum.peakRssBytes += usage.peakRssBytes;
  }
  return out;
}
