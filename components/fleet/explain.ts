// "Why is Kyma X in state Y" (issue 9): the reason chain from what the functions recorded — the Kyma's state and
// conditions, per module its resolution, its Manifest's state, conditions and runtime objects, and the module's state
// — plus the last Kubernetes Events about them and the trace that last changed the Kyma. Pure: the CLI reads, this decides.
import type { Condition } from '../../shared/core/objects.ts';
import type { Kyma, ModuleStatus } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { stateOf } from './summary.ts';

export interface KubeEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string };
}

export interface Explanation {
  /** "Kyma kcp-system/a: Error — <last operation>". */
  headline: string;
  /** The reason chain, one step per line, indented by depth. */
  chain: { depth: number; text: string }[];
  events: string[];
  traceId?: string;
}

const MAX_EVENTS = 10;

/** The explanation of `kyma` (and only `module` when given); `manifests` are the Kyma's, `events` about it or them. */
export function explainKyma(
  kyma: Kyma,
  manifests: readonly Manifest[],
  events: readonly KubeEvent[],
  module?: string,
  traceId?: string,
): Explanation {
  const { name, namespace = '' } = kyma.metadata;
  const state = stateOf(kyma.status?.state);
  const deleting = kyma.metadata.deletionTimestamp ? ' (being deleted)' : '';
  const headline = `Kyma ${namespace}/${name}: ${state}${deleting}${kyma.status?.lastOperation?.operation ? ` — ${kyma.status.lastOperation.operation}` : ''}`;
  const chain: Explanation['chain'] = [];
  if (!kyma.status)
    chain.push({
      depth: 0,
      text: 'no status yet: no function has handled this Kyma (is the lifecycle manager running and its ApiServerSource delivering?)',
    });
  if (!module) {
    const source = kyma.status?.specSource;
    if (source)
      chain.push({
        depth: 0,
        text: `spec from the ${source.from === 'runtime' ? 'runtime Kyma' : 'KCP Kyma'}, channel ${source.channel}`,
      });
    for (const c of kyma.status?.conditions ?? []) chain.push({ depth: 0, text: conditionText(c) });
  }
  const modules = (kyma.status?.modules ?? []).filter((m) => !module || m.name === module);
  if (module && modules.length === 0)
    chain.push({ depth: 0, text: `module ${module}: not in the Kyma's status (not asked for, or not resolved yet)` });
  for (const m of modules) chain.push(...moduleChain(m, manifestOf(m, manifests, kyma.metadata.name)));
  const names = new Set([
    kyma.metadata.name,
    ...modules.flatMap((m) => {
      const mf = manifestOf(m, manifests, kyma.metadata.name);
      return mf ? [mf.metadata.name] : [];
    }),
  ]);
  return {
    headline,
    chain,
    events: lastEvents(events.filter((e) => names.has(e.involvedObject?.name ?? ''))),
    ...(traceId ? { traceId } : {}),
  };
}

function moduleChain(m: ModuleStatus, manifest: Manifest | undefined): Explanation['chain'] {
  const r = m.resolution;
  const lines = [
    {
      depth: 0,
      text: `module ${m.name}${m.channel ? ` (channel ${m.channel})` : ''}: ${stateOf(m.state)}${m.message ? ` — ${m.message}` : ''}`,
    },
  ];
  if (r)
    lines.push({
      depth: 1,
      text: `resolution: ${r.state}${r.version ? ` ${r.version}` : ''}${r.maintenance ? ' (waiting for the maintenance window)' : ''}${r.notAllowed ? ' (not allowed for this Kyma: to be removed)' : ''}${r.message ? ` — ${r.message}` : ''}`,
    });
  if (!manifest) {
    lines.push({ depth: 1, text: 'Manifest: none' });
    return lines;
  }
  const s = manifest.status;
  const deleting = manifest.metadata.deletionTimestamp ? ' (being deleted)' : '';
  lines.push({
    depth: 1,
    text: `Manifest ${manifest.metadata.namespace ?? ''}/${manifest.metadata.name}${manifest.spec?.version ? ` ${manifest.spec.version}` : ''}: ${stateOf(s?.state)}${deleting}${s?.lastOperation?.operation ? ` — ${s.lastOperation.operation}` : ''}`,
  });
  for (const c of s?.conditions ?? []) lines.push({ depth: 2, text: conditionText(c) });
  const synced = s?.synced ?? [];
  if (synced.length)
    lines.push({
      depth: 2,
      text: `runtime objects (${synced.length}): ${synced.map((o) => `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`).join(', ')}`,
    });
  if (manifest.metadata.deletionTimestamp && manifest.metadata.finalizers?.length)
    lines.push({ depth: 2, text: `finalizers left: ${manifest.metadata.finalizers.join(', ')}` });
  return lines;
}

function manifestOf(m: ModuleStatus, manifests: readonly Manifest[], kyma: string): Manifest | undefined {
  const named = m.manifest?.metadata.name;
  return (
    manifests.find((mf) => mf.metadata.name === named) ??
    manifests.find(
      (mf) => mf.metadata.labels?.[LABEL.moduleName] === m.name && mf.metadata.labels[LABEL.kymaName] === kyma,
    )
  );
}

const conditionText = (c: Condition) => `${c.type} ${c.status}${c.message ? ` — ${c.message}` : ''}`;

/** Newest first, at most MAX_EVENTS: "<time> <type> <reason> <kind>/<name>: <message> (×count)". */
function lastEvents(events: readonly KubeEvent[]): string[] {
  const at = (e: KubeEvent) => e.lastTimestamp ?? e.eventTime ?? '';
  return [...events]
    .sort((a, b) => at(b).localeCompare(at(a)))
    .slice(0, MAX_EVENTS)
    .map(
      (e) =>
        `${at(e) || '-'} ${e.type ?? ''} ${e.reason ?? ''} ${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}: ${e.message ?? ''}${(e.count ?? 1) > 1 ? ` (×${e.count})` : ''}`,
    );
}

/** The explanation as text lines for a terminal; `traceUrl` (a template with `{traceId}`) links the last trace. */
export function explanationText(e: Explanation, traceUrl?: string): string {
  const link = e.traceId && traceUrl ? ` ${traceUrl.replaceAll('{traceId}', e.traceId)}` : '';
  return [
    e.headline,
    ...e.chain.map((l) => `${'  '.repeat(l.depth + 1)}${l.text}`),
    ...(e.events.length ? ['', 'last events:', ...e.events.map((l) => `  ${l}`)] : []),
    ...(e.traceId ? ['', `last trace: ${e.traceId}${link}`] : []),
  ].join('\n');
}
