// Plain-text rendering of the fleet view for the CLI (`status`): counts first, then one aligned table.
import type { FleetSummary } from './summary.ts';

/** "Ready 3, Error 1" in the order given, then any other keys alphabetically; zero counts left out. */
export function countsLine(counts: Record<string, number>, order: readonly string[]): string {
  const keys = [
    ...order.filter((k) => k in counts),
    ...Object.keys(counts)
      .filter((k) => !order.includes(k))
      .sort(),
  ];
  return (
    keys
      .filter((k) => (counts[k] ?? 0) > 0)
      .map((k) => `${k} ${counts[k]}`)
      .join(', ') || 'none'
  );
}

/** Columns padded to their widest cell, two spaces apart; numbers right-aligned. */
export function alignedTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string[] {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => typeof row[i] === 'number'));
  return cells.map((row) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function fleetText(
  summary: FleetSummary,
  order: { kyma: readonly string[]; module: readonly string[] },
): string {
  const deleting = summary.deleting ? ` (${summary.deleting} being deleted)` : '';
  const lines = [
    `Kymas: ${summary.kymas} — ${countsLine(summary.kymaStates, order.kyma)}${deleting}`,
    `Module installs: ${summary.moduleInstalls} — ${countsLine(summary.moduleStates, order.module)}`,
  ];
  if (summary.modules.length === 0) return lines.join('\n');
  const table = alignedTable(
    ['MODULE', 'VERSION', 'CHANNEL', 'STATE', 'KYMAS'],
    summary.modules.map((r) => [r.module, r.version, r.channel, r.state, r.kymas]),
  );
  return [...lines, '', ...table].join('\n');
}
