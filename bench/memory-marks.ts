// This process's memory at the ends of a run's phases after convergence: the peak so far (which never goes down),
// RSS and V8 heap now — places a peak after convergence in the edits, the settling, the bench's reads or the idle window.
import { mib, selfUsage } from './process-usage.ts';

export interface MemoryMark {
  after: string;
  peakRssMiB: number;
  rssMiB: number;
  heapUsedMiB: number;
}

export function memoryMark(after: string): MemoryMark {
  const { rssBytes, peakRssBytes } = selfUsage();
  return {
    after,
    peakRssMiB: mib(peakRssBytes),
    rssMiB: mib(rssBytes),
    heapUsedMiB: mib(process.memoryUsage().heapUsed),
  };
}

export const memoryMarksText = (marks: MemoryMark[]) =>
  marks.map((m) => `after ${m.after}: peak ${m.peakRssMiB}, RSS ${m.rssMiB}, heap ${m.heapUsedMiB} MiB`).join('; ');
