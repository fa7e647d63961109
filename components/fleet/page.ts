// The fleet page (issue 9, ADR 19): one self-contained, read-only HTML page at `/` that reads /api/fleet, /api/kymas
// and /api/kymas/<name>, refreshing when /api/changes reports a change. Data is only ever inserted as text
// (textContent), never as HTML.
import { MODULE_STATES } from './summary.ts';

export const FLEET_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Kyma fleet</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #222; }
  h1 { font-size: 1.3rem; margin: 0 0 1rem; }
  .counts span { display: inline-block; margin: 0 1rem 0.5rem 0; padding: 0.2rem 0.6rem; border-radius: 4px; background: #eee; }
  .Ready { color: #11632b; } .Error { color: #b00020; } .Warning { color: #9a6700; } .Processing { color: #0b57d0; } .Deleting { color: #6b4e9b; }
  form { margin: 1rem 0; display: flex; gap: 0.8rem; align-items: center; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 0.25rem 0.6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  tbody tr { cursor: pointer; } tbody tr:hover { background: #f4f7fb; }
  #detail { white-space: pre-wrap; font-family: ui-monospace, monospace; background: #f7f7f7; padding: 0.8rem; margin-top: 1rem; }
  #detail:empty { display: none; }
  .muted { color: #777; }
</style>
</head>
<body>
<h1>Kyma fleet</h1>
<p><a href="plan">Plan a release</a> — preview a ModuleReleaseMeta change before it happens (dry-run only)</p>
<div class="counts" id="kyma-counts"></div>
<div class="counts" id="module-counts"></div>
<form id="filters">
  <label>state <select name="state"><option value="">any</option><option>Ready</option><option>Processing</option><option>Error</option><option>Warning</option><option>Deleting</option><option>Unknown</option></select></label>
  <label>module <input name="module" size="12" placeholder="any"></label>
  <label>name <input name="name" size="16" placeholder="contains"></label>
  <span id="shown" class="muted"></span>
</form>
<table><thead><tr><th>Kyma</th><th>state</th><th>modules</th></tr></thead><tbody id="kymas"></tbody></table>
<div id="detail"></div>
<script>
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; };
let selected = '';
async function json(path) { const r = await fetch(path); if (!r.ok) throw new Error(path + ': ' + r.status); return r.json(); }
const ORDER = ${JSON.stringify([...MODULE_STATES, 'Unknown'])};
function counts(target, label, byState) {
  const keys = [...ORDER.filter((k) => k in byState), ...Object.keys(byState).filter((k) => !ORDER.includes(k)).sort()];
  target.replaceChildren(el('span', label), ...keys.map((k) => { const s = el('span', k + ' ' + byState[k], k); s.dataset.state = k; return s; }));
}
async function refresh() {
  const fleet = await json('api/fleet');
  counts($('kyma-counts'), 'Kymas: ' + fleet.kymas, fleet.kymaStates);
  counts($('module-counts'), 'module installs: ' + fleet.moduleInstalls, fleet.moduleStates);
  const query = new URLSearchParams([...new FormData($('filters'))].filter(([, v]) => v));
  const list = await json('api/kymas?' + query);
  $('shown').textContent = list.rows.length + ' of ' + list.total + ' shown';
  $('kymas').replaceChildren(...list.rows.map((k) => {
    const tr = el('tr'); tr.dataset.kyma = k.name;
    tr.append(el('td', k.name), el('td', k.state + (k.deleting ? ' (deleting)' : ''), k.state),
      el('td', k.modules.map((m) => m.name + ' ' + m.version + ' ' + m.state).join(', ')));
    tr.onclick = () => { selected = k.name; detail(); };
    return tr;
  }));
  if (selected) await detail();
}
async function detail() {
  const r = await fetch('api/kymas/' + encodeURIComponent(selected));
  if (!r.ok) { $('detail').textContent = selected + ': ' + (r.status === 404 ? 'gone' : 'not readable (' + r.status + ')'); return; }
  const e = await r.json();
  const lines = [e.headline, ...e.chain.map((l) => '  '.repeat(l.depth + 1) + l.text)];
  if (e.events.length) lines.push('', 'last events:', ...e.events.map((l) => '  ' + l));
  if (e.traceId) lines.push('', 'last trace: ' + e.traceId);
  $('detail').textContent = lines.join('\\n');
}
let pending;
const soon = () => { clearTimeout(pending); pending = setTimeout(() => refresh().catch((err) => { $('shown').textContent = String(err); }), 150); };
$('filters').addEventListener('input', soon);
$('filters').addEventListener('submit', (e) => { e.preventDefault(); soon(); });
new EventSource('api/changes').onmessage = soon;
refresh().catch((err) => { $('shown').textContent = String(err); });
</script>
</body>
</html>
`;
