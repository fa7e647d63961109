// bench/process-usage.ts against the real /proc of this machine (I/O, so not among the unit tests).
import { describe, expect, it } from 'vitest';
import { clockTicksPerSecond, readProcessUsage, selfUsage } from '../bench/process-usage.ts';

describe.runIf(process.platform === 'linux')('process usage from /proc', () => {
  it('reads this process: CPU as selfUsage counts it, memory as the kernel keeps it', async () => {
    const proc = await readProcessUsage(process.pid);
    const self = selfUsage();
    expect(await clockTicksPerSecond()).toBeGreaterThan(0);
    expect(proc?.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(proc?.peakRssBytes).toBeGreaterThanOrEqual(proc?.rssBytes ?? 0);
    expect(Math.abs((proc?.cpuSeconds ?? 0) - self.cpuSeconds)).toBeLessThan(1);
    // Not compared with getrusage's maxrss: after exec it still holds the parent's peak (CI saw half of it here), which
    // is why the benchmark reads its own peak from /proc/self/status.
  });

  it('gives undefined for a process that is gone', async () => {
    expect(await readProcessUsage(2 ** 22 + 1)).toBeUndefined();
  });
});
