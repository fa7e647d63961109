import { readFile, stat } from 'node:fs/promises';
import type { Kyma } from '../core/kyma.ts';
import { parsePolicy, windowOpen, windowsFor, type MaintenancePolicy } from '../core/maintenance.ts';
import { maintenanceConfigRead } from './metrics.ts';

/** The maintenance-window policy file (upstream format, e.g. a mounted ConfigMap, ADR 10), re-read when its
 * modification time changes; without a configured path windows are off. */
export class MaintenancePolicyFile {
  private cached: { mtimeMs: number; policy: MaintenancePolicy } | undefined;
  private readonly path: string | undefined;
  private readonly minMinutes: number;

  constructor(path: string | undefined, minMinutes: number) {
    this.path = path;
    this.minMinutes = minMinutes;
  }

  /** Whether the Kyma's window is open now; an unreadable policy is reported, not thrown (it matters only for
   * modules that must wait). */
  async windowOf(kyma: Kyma, now = new Date()): Promise<{ open: boolean } | { error: string } | undefined> {
    if (!this.path) return undefined;
    try {
      const policy = await this.policy(this.path).catch((error: unknown) => {
        maintenanceConfigRead.set(0);
        throw error;
      });
      maintenanceConfigRead.set(1);
      return { open: windowOpen(windowsFor(policy, kyma), now, this.minMinutes) };
    } catch (error) {
      return { error: `maintenance policy ${this.path}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  private async policy(path: string): Promise<MaintenancePolicy> {
    const { mtimeMs } = await stat(path);
    if (this.cached?.mtimeMs !== mtimeMs) this.cached = { mtimeMs, policy: parsePolicy(await readFile(path, 'utf8')) };
    return this.cached.policy;
  }
}
