// PURE. The fleet page's plan view (GET /plan): a form for the change and the plan as an HTML table. Every value is
// escaped; the page runs no script.
import type { PlanReport } from './report.ts';
import { runtimeText } from './text.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface PlanForm {
  releaseMeta: string;
  setChannels: string[];
  kymas: string[];
  samplePerGroup: string;
}

export function planPage(
  form: PlanForm,
  answer: { report: PlanReport; cached: boolean } | { error: string } | undefined,
): string {
  const rows = answer && 'report' in answer ? answer.report.rows : [];
  const head =
    answer && 'report' in answer
      ? `<p>${escape(answer.report.change)} — Kymas using it: ${answer.report.kymas}, unchanged: ${answer.report.unchanged}, runtime dry-runs: ${answer.report.dryRuns}, ${answer.report.seconds} s${answer.cached ? ' (cached)' : ''}. Nothing was written.</p>`
      : answer
        ? `<p class="Error">${escape(answer.error)}</p>`
        : '<p class="muted">Name a ModuleReleaseMeta and the channel versions it would get.</p>';
  const table = rows.length
    ? `<table><thead><tr><th>Kyma</th><th>module</th><th>outcome</th><th>from</th><th>to</th><th>runtime (+created ~changed -pruned)</th><th>message</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${escape(r.kyma)}</td><td>${escape(r.module)}</td><td class="${escape(r.outcome)}">${escape(r.outcome)}</td><td>${escape(r.from || '-')}</td><td>${escape(r.to || '-')}</td><td>${escape(runtimeText(r))}${objects(r.runtime)}</td><td>${escape(r.message)}</td></tr>`).join('\n')}
</tbody></table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plan a release</title>
<style>body { font: 14px system-ui, sans-serif; margin: 1.5rem; } table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 0.25rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
.refused, .Error { color: #b00020; } .waits { color: #9a6700; } .upgrade, .install { color: #0b57d0; } .muted { color: #777; } ul { margin: 0.2rem 0; padding-left: 1rem; font-family: ui-monospace, monospace; }</style></head>
<body><h1>Plan a release</h1><p><a href="./">← fleet</a></p>
<form method="get" action="plan">
<label>ModuleReleaseMeta <input name="releaseMeta" value="${escape(form.releaseMeta)}" size="16"></label>
<label>set channel <input name="setChannel" value="${escape(form.setChannels.join(','))}" placeholder="fast=1.2.0,regular=1.1.0" size="28"></label>
<label>Kymas <input name="kyma" value="${escape(form.kymas.join(','))}" placeholder="all" size="16"></label>
<label>dry-runs per group <input name="samplePerGroup" value="${escape(form.samplePerGroup)}" size="3"></label>
<button>plan</button></form>
${head}
${table}
</body></html>
`;
}

function objects(diff: PlanReport['rows'][number]['runtime']): string {
  if (!diff || 'sameAs' in diff || 'error' in diff) return '';
  const items = [
    ...diff.created.map((o) => `+ ${o}`),
    ...diff.changed.map((o) => `~ ${o}`),
    ...diff.pruned.map((o) => `- ${o}`),
    ...diff.blockedBy.map((o) => `! blocked by ${o}`),
    ...diff.deletedWithCrds.map((o) => `! ${o} deleted with its CRD`),
    ...diff.keptCrds.map((o) => `! ${o}`),
  ];
  return items.length ? `<ul>${items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>` : '';
}
