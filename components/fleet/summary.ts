// The fleet at a glance (issue 9): Kymas by state, modules by name, version, channel and state — computed from the
// Kymas' status alone, so it costs one LIST (or a watch cache) for any fleet size.
import type { Kyma, ModuleStatus } from '../../shared/core/kyma.ts';

export const KYMA_STATES = ['Ready', 'Processing', 'Error', 'Warning', 'Deleting'] as const;
export const MODULE_STATES = ['Ready', 'Processing', 'Error', 'Warning', 'Deleting', 'Unmanaged'] as const;

/** One row of the module table: how many Kymas run this module at this version and channel, in this state. */
export interface ModuleRow {
  module: string;
  version: string;
  channel: string;
  state: string;
  kymas: number;
}

export interface FleetSummary {
  kymas: number;
  /** Kymas by status.state; a Kyma without a state yet counts as "Unknown". */
  kymaStates: Record<string, number>;
  /** Kymas with a deletionTimestamp (also counted in their state). */
  deleting: number;
  moduleInstalls: number;
  moduleStates: Record<string, number>;
  modules: ModuleRow[];
}

export const stateOf = (state: string | undefined) => state ?? 'Unknown';

/** Kyma and module names as the fleet views accept them in a request (CLI arguments, /api/kymas/<name>). */
export const FLEET_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** One module install as the fleet views show it: version and channel, '-' when not known yet. */
export const installOf = (kyma: Kyma, module: ModuleStatus) => ({
  version: module.version ?? '-',
  channel: module.channel ?? kyma.status?.activeChannel ?? kyma.spec?.channel ?? '-',
  state: stateOf(module.state),
});

/** The summary of `kymas`; rows ordered by module, version, channel, state. */
export function summarizeFleet(kymas: readonly Kyma[]): FleetSummary {
  const kymaStates: Record<string, number> = {};
  const moduleStates: Record<string, number> = {};
  const rows = new Map<string, ModuleRow>();
  let deleting = 0;
  let moduleInstalls = 0;
  for (const kyma of kymas) {
    count(kymaStates, stateOf(kyma.status?.state));
    if (kyma.metadata.deletionTimestamp) deleting++;
    for (const module of kyma.status?.modules ?? []) {
      moduleInstalls++;
      const row = { module: module.name, ...installOf(kyma, module) };
      count(moduleStates, row.state);
      const key = [row.module, row.version, row.channel, row.state].join('\n');
      const known = rows.get(key);
      if (known) known.kymas++;
      else rows.set(key, { ...row, kymas: 1 });
    }
  }
  const modules = [...rows.values()].sort(
    (a, b) =>
      a.module.localeCompare(b.module) ||
      a.version.localeCompare(b.version) ||
      a.channel.localeCompare(b.channel) ||
      a.state.localeCompare(b.state),
  );
  return { kymas: kymas.length, kymaStates, deleting, moduleInstalls, moduleStates, modules };
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
