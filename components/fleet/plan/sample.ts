// PURE. Which Kymas get a runtime dry-run: per group of Kymas with the same change (module, from → to, outcome),
// the first `perGroup` by name; the others are reported as the same change as one of them.
import type { ModulePlan } from './classify.ts';

/** Outcomes that touch the runtime: an upgrade or install applies objects, a removal deletes them. */
export const touchesRuntime = (p: ModulePlan) => p.outcome === 'upgrade' || p.outcome === 'install' || p.removes;

export const groupOf = (p: ModulePlan) => `${p.module} ${p.from || '-'} → ${p.to || '-'} ${p.outcome}`;

/** For each (Kyma, module) that touches the runtime: dry-run it (`sample`), or the sampled Kyma it is like. */
export function pickSamples(
  plans: readonly { kyma: string; modules: readonly ModulePlan[] }[],
  perGroup: number | undefined,
): Map<string, { sample: true } | { sameAs: string }> {
  const taken = new Map<string, string[]>();
  const picks = new Map<string, { sample: true } | { sameAs: string }>();
  for (const { kyma, modules } of [...plans].sort((a, b) => a.kyma.localeCompare(b.kyma))) {
    for (const plan of modules.filter(touchesRuntime)) {
      const group = groupOf(plan);
      const samples = taken.get(group) ?? [];
      if (perGroup === undefined || samples.length < perGroup) {
        taken.set(group, [...samples, kyma]);
        picks.set(`${kyma}/${plan.module}`, { sample: true });
      } else {
        picks.set(`${kyma}/${plan.module}`, { sameAs: samples[0] ?? '' });
      }
    }
  }
  return picks;
}
