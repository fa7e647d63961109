// PURE. The fleet page's Kyma list: one row per Kyma, filtered by state, module and name, ordered by name, capped.
import type { Kyma } from '../../shared/core/kyma.ts';
import { installOf, stateOf } from './summary.ts';

export interface KymaRow {
  name: string;
  state: string;
  deleting: boolean;
  modules: { name: string; state: string; version: string; channel: string }[];
}

export interface RowFilter {
  /** A Kyma state, or a module state when `module` is given too ("which Kymas have module X in Error"). */
  state?: string | undefined;
  module?: string | undefined;
  /** A substring of the Kyma's name. */
  name?: string | undefined;
  limit?: number | undefined;
}

export const MAX_ROWS = 500;

export function kymaRows(kymas: readonly Kyma[], filter: RowFilter): { total: number; rows: KymaRow[] } {
  const rows = kymas
    .map((kyma): KymaRow => ({
      name: kyma.metadata.name,
      state: stateOf(kyma.status?.state),
      deleting: Boolean(kyma.metadata.deletionTimestamp),
      modules: (kyma.status?.modules ?? []).map((m) => ({ name: m.name, ...installOf(kyma, m) })),
    }))
    .filter((row) => matches(row, filter))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { total: rows.length, rows: rows.slice(0, Math.min(filter.limit ?? MAX_ROWS, MAX_ROWS)) };
}

function matches(row: KymaRow, { state, module, name }: RowFilter): boolean {
  if (name && !row.name.includes(name)) return false;
  if (module) {
    const found = row.modules.find((m) => m.name === module);
    return Boolean(found) && (!state || found?.state === state);
  }
  return !state || row.state === state;
}
