// PURE. A plan as text (the CLI's default output): one line for the change and the counts, then one row per Kyma and
// module the change moves, with its runtime diff.
import { alignedTable } from '../table.ts';
import type { PlanReport, PlanRow } from './report.ts';

export function planText(report: PlanReport): string {
  const counts = new Map<string, number>();
  for (const row of report.rows) counts.set(row.outcome, (counts.get(row.outcome) ?? 0) + 1);
  const summary = [...counts].map(([outcome, n]) => `${outcome} ${n}`).join(', ') || 'nothing moves';
  const lines = [
    `plan: ${report.change} (namespace ${report.namespace}) — nothing was written`,
    `Kymas using it: ${report.kymas}, unchanged: ${report.unchanged}; modules: ${summary}; runtime dry-runs: ${report.dryRuns}; ${report.seconds} s`,
  ];
  if (report.rows.length === 0) return lines.join('\n');
  const table = alignedTable(
    ['KYMA', 'MODULE', 'OUTCOME', 'FROM', 'TO', 'RUNTIME', 'MESSAGE'],
    report.rows.map((r) => [r.kyma, r.module, r.outcome, r.from || '-', r.to || '-', runtimeText(r), r.message || '']),
  );
  return [...lines, '', ...table, ...details(report.rows)].join('\n');
}

/** `+2 ~1 -1` (created, changed, pruned), `same as <kyma>`, `blocked by 1 CR`, or the error. */
export function runtimeText(row: PlanRow): string {
  const diff = row.runtime;
  if (!diff) return '';
  if ('sameAs' in diff) return `same as ${diff.sameAs}`;
  if ('error' in diff) return `error: ${diff.error}`;
  const blocked = diff.blockedBy.length
    ? ` blocked by ${diff.blockedBy.length} CR${diff.blockedBy.length > 1 ? 's' : ''}`
    : '';
  const lost = diff.deletedWithCrds.length
    ? ` deletes ${diff.deletedWithCrds.length} CR${diff.deletedWithCrds.length > 1 ? 's' : ''}`
    : '';
  const kept = diff.keptCrds.length ? ` keeps ${diff.keptCrds.length} CRD${diff.keptCrds.length > 1 ? 's' : ''}` : '';
  return `+${diff.created.length} ~${diff.changed.length} -${diff.pruned.length}${blocked}${lost}${kept}`;
}

/** The objects of each dry-run, below the table. */
function details(rows: readonly PlanRow[]): string[] {
  return rows.flatMap((row) => {
    const diff = row.runtime;
    if (!diff || 'sameAs' in diff || 'error' in diff) return [];
    const part = (sign: string, names: readonly string[]) => names.map((n) => `    ${sign} ${n}`);
    const blocked = diff.blockedBy.map((cr) => `    ! removal blocked by ${cr}`);
    const lost = diff.deletedWithCrds.map((cr) => `    ! ${cr} deleted with its CRD`);
    const kept = diff.keptCrds.map((crd) => `    ! ${crd}`);
    const all = [
      ...part('+', diff.created),
      ...part('~', diff.changed),
      ...part('-', diff.pruned),
      ...blocked,
      ...lost,
      ...kept,
    ];
    return all.length ? ['', `${row.kyma} ${row.module}:`, ...all] : [];
  });
}
