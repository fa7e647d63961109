// PURE. `plan` on the command line: what to preview (a file, or an existing ModuleReleaseMeta with channels set), which
// Kymas, how much runtime dry-running. Every refusal is an InputError (exit code 2) saying what is expected.
import { parseArgs } from 'node:util';
import { KCP_NAMESPACE } from '../../../shared/core/vocabulary.ts';
import { channelProblem, InputError, namespaceProblem, refuse } from '../../../shared/host/input-rules.ts';
import { FLEET_NAME } from '../summary.ts';
import type { ChannelSet } from './change.ts';

export interface PlanArgs {
  command: 'plan';
  namespace: string;
  kubeconfig: string | undefined;
  /** A file path (`.yaml`/`.yml`/`.json` or containing "/") or the name of a stored ModuleReleaseMeta. */
  releaseMeta: { file: string } | { name: string } | undefined;
  template: string | undefined;
  setChannels: ChannelSet[];
  kymas: string[];
  samplePerGroup: number | undefined;
  concurrency: number;
  output: 'text' | 'json';
  registry: string | undefined;
  maintenancePolicy: string | undefined;
}

const OPTIONS = {
  namespace: { type: 'string', short: 'n' },
  kubeconfig: { type: 'string' },
  'release-meta': { type: 'string' },
  template: { type: 'string' },
  'set-channel': { type: 'string', multiple: true },
  kyma: { type: 'string', multiple: true },
  'sample-per-group': { type: 'string' },
  concurrency: { type: 'string' },
  output: { type: 'string', short: 'o' },
  registry: { type: 'string' },
  'maintenance-policy': { type: 'string' },
} as const;

export function parsePlanArgs(argv: readonly string[]): PlanArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new InputError(`plan: ${(error as Error).message}`);
  }
  const v = parsed.values;
  const namespace = v.namespace ?? KCP_NAMESPACE;
  refuse('--namespace', namespace, namespaceProblem(namespace));
  if (!v['release-meta'] && !v.template)
    throw new InputError('plan needs --release-meta <file|name> or --template <file>');
  if (v['release-meta'] && v.template)
    throw new InputError('plan previews one change: --release-meta or --template, not both');
  const setChannels = (v['set-channel'] ?? []).map(channelSet);
  const releaseMeta =
    v['release-meta'] === undefined
      ? undefined
      : isFile(v['release-meta'])
        ? { file: v['release-meta'] }
        : { name: v['release-meta'] };
  if (setChannels.length && !(releaseMeta && 'name' in releaseMeta))
    throw new InputError('--set-channel changes a stored ModuleReleaseMeta: pass its name as --release-meta');
  if (releaseMeta && 'name' in releaseMeta)
    refuse(
      '--release-meta',
      releaseMeta.name,
      FLEET_NAME.test(releaseMeta.name)
        ? ''
        : 'expected a file (.yaml, .yml, .json) or the name of a ModuleReleaseMeta',
    );
  if (releaseMeta && 'name' in releaseMeta && !setChannels.length)
    throw new InputError('--release-meta <name> needs at least one --set-channel <channel>=<version> (or pass a file)');
  for (const kyma of v.kyma ?? []) refuse('--kyma', kyma, FLEET_NAME.test(kyma) ? '' : 'expected the name of a Kyma');
  const output = v.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new InputError(`--output "${output}": expected text or json`);
  if (v.registry !== undefined && !/^https?:\/\/[^/\s]+$/.test(v.registry))
    throw new InputError(`--registry "${v.registry}": expected the module registry's URL, e.g. http://127.0.0.1:5000`);
  return {
    command: 'plan',
    namespace,
    kubeconfig: v.kubeconfig,
    releaseMeta,
    template: v.template,
    setChannels,
    kymas: v.kyma ?? [],
    samplePerGroup:
      v['sample-per-group'] === undefined ? undefined : count('--sample-per-group', v['sample-per-group'], 1),
    concurrency: v.concurrency === undefined ? 8 : count('--concurrency', v.concurrency, 1),
    output,
    registry: v.registry,
    maintenancePolicy: v['maintenance-policy'],
  };
}

const isFile = (value: string) => /\.(ya?ml|json)$/.test(value) || value.includes('/');

function channelSet(value: string): ChannelSet {
  const [channel = '', version = '', ...rest] = value.split('=');
  if (!channel || !version || rest.length)
    throw new InputError(`--set-channel "${value}": expected <channel>=<version>, e.g. fast=1.2.0`);
  refuse('--set-channel', channel, channelProblem(channel));
  return { channel, version };
}

function count(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > 1000)
    throw new InputError(`${flag} "${value}": expected a whole number from ${min} to 1000`);
  return n;
}

export const PLAN_HELP = `  plan                   preview a release before it happens: which Kymas would change from which version to
                         which, which wait for a maintenance window or are refused, and on their runtimes which
                         objects would be created, changed or pruned (server-side dry-run). Never writes.
      --release-meta <f|name>  a ModuleReleaseMeta file, or the name of a stored one with --set-channel
      --set-channel <ch>=<v>   (repeatable) the channel's version after the change
      --template <file>        a ModuleTemplate file instead
      --kyma <name>            (repeatable) only these Kymas
      --sample-per-group <n>   dry-run only n Kymas per group with the same change (module, from → to)
      --concurrency <n>        runtime dry-runs and registry reads at once (default 8)
      --registry <url>         the module registry (default $LIFECYCLE_OCI_REGISTRY)
      --maintenance-policy <f> the maintenance-window policy (default $LIFECYCLE_MAINTENANCE_POLICY)
  -o, --output text|json
`;
