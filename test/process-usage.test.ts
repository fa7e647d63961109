// bench/process-usage.ts against the real /proc of this machine (I/O, so not among the unit tests).
import { describe, expect, it } from 'vitest';
import { clockTicksPerSecond, readProcessUsage, selfUsage } from '../bench/process-usage.ts';

describe.runIf(process.platform === 'linux')('process usage from /proc', () => {
  it('reads this process like selfUsage does (CPU within a second, peaks of the same order)', async () => {
    const proc = await readProcessUsage(process.pid);
    const self = selfUsage();
    expect(await clockTicksPerSecond()).toBeGreaterThan(0);
    expect(proc?.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(proc?.peakRssBytes).toBeGreaterThanOrEqual(proc?.rssBytes ?? 0);
    expect(Math.abs((proc?.cpuSeconds ?? 0) - self.cpuSeconds)).toBeLessThan(1);
    // VmHWM and getrusage's maxrss are sampled differently; on a busy machine they drift apart by tens of MiB.
    const ratio = (proc?.peakRssBytes ?? 0) / self.peakRssBytes;
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('gives undefined for a process that is gone', async () => {
    expect(await readProcessUsage(2 ** 22 + 1)).toBeUndefined();
  });
});
