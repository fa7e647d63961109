// Spread releases (ADR 30): a ModuleReleaseMeta change reaches the fleet at a budget — Kymas per minute fleet-wide
// and per runtime API server — instead of all at once. Which Kymas still wait for a release is read from the CRs
// (a module entry resolved against an older channel version), so nothing is lost when a function restarts. Pure.
import type { Kyma } from './kyma.ts';
import { fnv1Hash32 } from './names.ts';
import type { ModuleReleaseMeta } from './templates.ts';
import { restrictionProblem } from './visibility.ts';

export interface ReleaseBudget {
  /** Kymas per minute a release reaches, fleet-wide; 0 = no limit. */
  readonly kymasPerMinute: number;
  /** Kymas per minute a release reaches on one runtime API server; 0 = no limit. */
  readonly kymasPerRuntimePerMinute: number;
}

/** Module name → channel → the version the channel points at. */
export type ChannelVersions = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function channelVersionsOf(metas: readonly Pick<ModuleReleaseMeta, 'spec'>[]): ChannelVersions {
  const versions = new Map<string, Map<string, string>>();
  for (const meta of metas) {
    const module = meta.spec?.moduleName;
    if (!module) continue;
    versions.set(module, new Map((meta.spec?.channels ?? []).map((c) => [c.channel, c.version])));
  }
  return versions;
}

/** The modules of a Kyma that wait for a release (ADR 30): the channel its last resolution followed now points at
 * another version. Refused entries and those without a recorded version do not wait (a refused downgrade keeps the
 * installed channel in the entry, ADR 38). */
export function awaitedReleases(kyma: Pick<Kyma, 'spec' | 'status'>, versions: ChannelVersions): string[] {
  const waiting: string[] = [];
  for (const entry of kyma.status?.modules ?? []) {
    const seen = entry.resolution?.version;
    if (!seen || entry.resolution?.notAllowed) continue;
    const channel = entry.resolution?.channel ?? entry.channel ?? kyma.spec?.channel ?? '';
    const now = versions.get(entry.name)?.get(channel);
    if (now !== undefined && now !== seen) waiting.push(entry.name);
  }
  return waiting;
}

export interface ReleaseCandidate {
  readonly name: string;
  /** The runtime API server the Kyma's objects live on (its kubeconfig's server), or the Kyma's own name. */
  readonly runtime: string;
}

/** The Kymas a release reaches now, within the budget; the rest wait for a later minute. Ordered by a hash of the
 * Kyma's name, the same at every tick, so a Kyma picked but not yet worked on is picked again (ADR 30). */
export function pickReleases<T extends ReleaseCandidate>(
  waiting: readonly T[],
  budget: ReleaseBudget,
): { now: T[]; later: number } {
  const unlimited = (n: number) => n <= 0;
  if (unlimited(budget.kymasPerMinute) && unlimited(budget.kymasPerRuntimePerMinute))
    return { now: [...waiting], later: 0 };
  const ordered = waiting
    .map((c) => ({ c, order: fnv1Hash32(`release/${c.name}`) }))
    .sort((a, b) => a.order - b.order || (a.c.name < b.c.name ? -1 : 1));
  const perRuntime = new Map<string, number>();
  const now: T[] = [];
  for (const { c } of ordered) {
    if (!unlimited(budget.kymasPerMinute) && now.length >= budget.kymasPerMinute) break;
    const used = perRuntime.get(c.runtime) ?? 0;
    if (!unlimited(budget.kymasPerRuntimePerMinute) && used >= budget.kymasPerRuntimePerMinute) continue;
    perRuntime.set(c.runtime, used + 1);
    now.push(c);
  }
  return { now, later: waiting.length - now.length };
}

/** What a change of `module`'s ModuleReleaseMeta means for a Kyma using it (ADR 30): `resolve` at once (no resolved
 * version yet, or its kymaSelector now refuses a module the last resolution allowed), `release` (a channel it follows
 * moved; within the budget) or `none` (neither the versions it follows nor its visibility changed). */
export function releaseNeed(
  kyma: Pick<Kyma, 'metadata' | 'spec' | 'status'>,
  module: string,
  meta: Pick<ModuleReleaseMeta, 'spec'> | undefined,
  restricted: readonly string[] = [],
): 'release' | 'resolve' | 'none' {
  const entry = kyma.status?.modules?.find((m) => m.name === module);
  if (!entry?.resolution?.version || entry.resolution.notAllowed) return 'resolve';
  if (restrictionProblem(kyma, module, meta?.spec?.kymaSelector, restricted)) return 'resolve';
  return awaitedReleases(
    { ...kyma, status: { ...kyma.status, modules: [entry] } },
    channelVersionsOf(meta ? [meta] : []),
  ).length
    ? 'release'
    : 'none';
}
