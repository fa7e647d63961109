import type { Kyma, ModuleStatus } from './kyma.ts';
import { isDowngrade } from './semver.ts';

/** PURE. The upstream downgrade guard (ADR 38): a version lower (major.minor.patch) than the installed one is refused
 * unless the module names exactly it in `allowDowngradeTo`. Returns the refusal, '' when allowed. */
export function downgradeProblem(
  previous: ModuleStatus | undefined,
  version: string,
  channel: string,
  allowDowngradeTo?: string,
): string {
  if (!previous?.template || !previous.version) return '';
  if (!isDowngrade(previous.version, version) || allowDowngradeTo === version) return '';
  return `ignore channel skew (from ${previous.channel ?? ''} to ${channel}), as a higher version (${previous.version}) of the module was previously installed`;
}

export interface Downgrade {
  module: string;
  from: string;
  to: string;
}

/** PURE. The downgrades a new resolution starts (ADR 38): modules resolved to a lower version than the installed one
 * that the stored resolution did not already resolve to; each is announced once with an Event on the Kyma. */
export function startedDowngrades(kyma: Kyma, computed: ModuleStatus[]): Downgrade[] {
  return computed.flatMap((entry) => {
    const stored = kyma.status?.modules?.find((m) => m.name === entry.name);
    const [from, to] = [stored?.version, entry.resolution?.version];
    if (!from || !to || entry.resolution?.state !== 'Resolved' || !entry.template || entry.resolution.maintenance)
      return [];
    const already =
      stored?.resolution?.state === 'Resolved' && stored.template?.metadata.name === entry.template.metadata.name;
    return !already && isDowngrade(from, to) ? [{ module: entry.name, from, to }] : [];
  });
}

/** The Kubernetes Event about a downgrade that starts. */
export const downgradeEvent = (d: Downgrade) => ({
  type: 'Normal' as const,
  reason: 'ModuleDowngrade',
  message: `module ${d.module}: downgrade from ${d.from} to ${d.to} allowed by spec.modules[].allowDowngradeTo; what ${d.from} added is pruned, ${d.to} is applied, user CRs are kept`,
});
