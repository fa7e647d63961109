// PURE. What a change would do to one Kyma's module, told from resolve-template's answers before and after it: the
// words are resolve-template's own (the message it would write), only sorted into what an operator asks about.
import { canonicalJson } from '../../../shared/core/canonical.ts';
import type { Kyma, ModuleStatus } from '../../../shared/core/kyma.ts';

export type Outcome = 'unchanged' | 'upgrade' | 'install' | 'waits' | 'refused' | 'error';

export interface ModulePlan {
  module: string;
  outcome: Outcome;
  /** The version installed now (status.modules[].version, else what resolution resolved last). */
  from: string;
  /** The version resolution would pick after the change ('' when none). */
  to: string;
  /** resolve-template's message after the change (refusals, errors, maintenance waits). */
  message: string;
  /** A refusal that makes render-manifest delete the module's Manifest (visibility, restricted): a removal. */
  removes: boolean;
}

/** Plans of the Kyma's modules whose resolution the change moves (others: unchanged, left out). */
export function planModules(kyma: Kyma, before: ModuleStatus[], after: ModuleStatus[]): ModulePlan[] {
  const earlier = new Map(before.map((m) => [m.name, m]));
  return after.flatMap((entry) => {
    const previous = earlier.get(entry.name);
    if (previous && same(previous, entry)) return [];
    return [
      classify(
        kyma.status?.modules?.find((m) => m.name === entry.name),
        entry,
      ),
    ];
  });
}

function classify(current: ModuleStatus | undefined, entry: ModuleStatus): ModulePlan {
  const resolution = entry.resolution;
  const from = current?.version ?? current?.resolution?.version ?? '';
  const to = resolution?.version ?? '';
  const plan = { module: entry.name, from, to, message: resolution?.message ?? '', removes: false };
  if (!resolution) return { ...plan, outcome: 'error', message: 'not resolved' };
  if (resolution.maintenance) return { ...plan, outcome: 'waits' };
  if (resolution.notAllowed) return { ...plan, outcome: 'refused', removes: Boolean(current?.manifest || from) };
  if (resolution.state === 'Resolved')
    return { ...plan, outcome: to === from ? 'unchanged' : from ? 'upgrade' : 'install' };
  // A refusal that keeps what is installed (the downgrade guard): Warning, the previous template kept.
  if (resolution.state === 'Warning' && entry.template && to && to !== from) return { ...plan, outcome: 'refused' };
  return { ...plan, outcome: 'error' };
}

const same = (a: ModuleStatus, b: ModuleStatus) => canonicalJson(a) === canonicalJson(b);
