// `kyma-lifecycle-functions plan …` (issue 25): reads the change (a file, or a stored ModuleReleaseMeta with channels
// set), plans it against the KCP and the runtimes, prints text or JSON. Progress goes to stderr; nothing is written.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { readConfig, type Config } from '../../shared/host/config.ts';
import { InputError } from '../../shared/host/input-rules.ts';
import type { FleetIo } from '../fleet/cli/command.ts';
import { locateKcp } from '../fleet/cli/kubeconfig.ts';
import { parsePlanArgs, type PlanArgs } from '../../components/fleet/plan/args.ts';
import type { ChangeRequest } from '../../components/fleet/plan/change.ts';
import { PLAN_USER_AGENT } from '../../components/fleet/plan/read-only.ts';
import { planText } from '../../components/fleet/plan/text.ts';

/** Exit code: 0 planned, 1 the KCP, a runtime or the registry could not be read, 2 refused input. */
export async function runPlanCommand(argv: readonly string[], io: FleetIo): Promise<number> {
  const args = parsePlanArgs(argv);
  const change = await changeRequest(args);
  // Like status and why: --kubeconfig, else $KUBECONFIG, else the KCP a running `./dev start` announced.
  const source = await locateKcp({ kubeconfig: args.kubeconfig, fleet: undefined }, io.kubeconfigEnv, 'kcp');
  if (!('kubeconfig' in source)) throw new InputError('plan reads the KCP itself: pass --kubeconfig or set KUBECONFIG');
  const [{ KubeClient }, { kubeConfigOf }, policy, { planDeps }, { plan }] = await Promise.all([
    import('../../shared/kube/client.ts'),
    import('../../shared/kube/kubeconfig.ts'),
    import('../../shared/kube/kubeconfig-policy.ts'),
    import('../../components/fleet/plan/deps.ts'),
    import('../../components/fleet/plan/plan.ts'),
  ]);
  const config = configFor(args);
  const refusal = policy.kubeconfigRefusal(source.kubeconfig, config.kubeconfigExecCommands);
  if (refusal) throw new InputError(`the kubeconfig ${source.kubeconfigPath} is refused: ${refusal}`);
  let kcp: Awaited<ReturnType<typeof KubeClient.from>>;
  try {
    kcp = await KubeClient.from(kubeConfigOf(source.kubeconfig), { userAgent: PLAN_USER_AGENT });
  } catch {
    throw new InputError(
      `the kubeconfig ${source.kubeconfigPath} is not usable (not a kubeconfig, or no current cluster)`,
    );
  }
  const deps = await planDeps(kcp, config, io.stderr);
  const report = await plan(deps, {
    namespace: args.namespace,
    change,
    kymas: args.kymas,
    samplePerGroup: args.samplePerGroup,
    concurrency: args.concurrency,
  });
  io.stdout(args.output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : `${planText(report)}\n`);
  return 0;
}

function configFor(args: PlanArgs): Config {
  const config = readConfig();
  const registry = args.registry
    ? {
        ...config.registry,
        base: args.registry.replace(/^https?:\/\//, ''),
        plainHttp: args.registry.startsWith('http://'),
      }
    : config.registry;
  return {
    ...config,
    registry,
    kcpNamespace: args.namespace,
    maintenancePolicyPath: args.maintenancePolicy ?? config.maintenancePolicyPath,
  };
}

async function changeRequest(args: PlanArgs): Promise<ChangeRequest> {
  const file = args.template ?? (args.releaseMeta && 'file' in args.releaseMeta ? args.releaseMeta.file : undefined);
  if (file === undefined)
    return {
      releaseMeta: args.releaseMeta && 'name' in args.releaseMeta ? args.releaseMeta.name : '',
      setChannels: args.setChannels,
    };
  const text = await readFile(file, 'utf8').catch(() => {
    throw new InputError(`cannot read ${file}`);
  });
  try {
    return { document: parse(text, { maxAliasCount: 100 }) as unknown, file };
  } catch {
    throw new InputError(`${file} is not YAML (or JSON)`);
  }
}
