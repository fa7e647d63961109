// The fleet CLI (issue 9): `status` and `why` against the KCP or the fleet component, and `plan` (issue 25,
// tools/plan). Reads only; the decisions are tools/fleet's and tools/plan's.
import type { Kyma } from '../../../shared/core/kyma.ts';
import { API_VERSION } from '../../../shared/core/vocabulary.ts';
import { explanationText, type Explanation } from '../../../components/fleet/explain.ts';
import { readExplanation } from '../../../components/fleet/read.ts';
import { KYMA_STATES, MODULE_STATES, summarizeFleet, type FleetSummary } from '../../../components/fleet/summary.ts';
import { fleetText } from '../../../components/fleet/table.ts';
import { listAll } from '../../../shared/kube/list.ts';
import { readConfig } from '../../../shared/host/config.ts';
import { InputError } from '../../../shared/host/input-rules.ts';
import { FLEET_HELP, parseFleetRequest } from './args.ts';
import { locateKcp, type KcpSource } from './kubeconfig.ts';
import { runPlanCommand } from '../../plan/command.ts';

export interface FleetIo {
  stdout: (text: string) => void;
  stderr: (line: string) => void;
  /** $KUBECONFIG */
  kubeconfigEnv: string | undefined;
}

/** Exit code: 0 answered, 1 the KCP could not be read (or the Kyma does not exist), 2 refused input. */
export async function runFleetCommand(argv: readonly string[], io: FleetIo): Promise<number> {
  try {
    if (argv[0] === 'plan') return await runPlanCommand(argv.slice(1), io);
    const request = parseFleetRequest(argv);
    if (request.command === 'help') {
      io.stdout(FLEET_HELP);
      return 0;
    }
    const reader = await readerOf(await locateKcp(request, io.kubeconfigEnv), request.namespace);
    if (request.command === 'status') {
      const summary = await reader.summary();
      io.stdout(
        request.json
          ? `${JSON.stringify(summary, null, 2)}\n`
          : `${fleetText(summary, { kyma: KYMA_STATES, module: MODULE_STATES })}\n`,
      );
      return 0;
    }
    const explanation = await reader.explanation(request.kyma, request.module);
    if (!explanation) {
      io.stderr(`error: no Kyma ${request.namespace}/${request.kyma}`);
      return 1;
    }
    const traceUrl = request.traceUrl ?? readConfig().traceUrl;
    io.stdout(
      request.json ? `${JSON.stringify(explanation, null, 2)}\n` : `${explanationText(explanation, traceUrl)}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr(`error: ${error.message}`);
      return 2;
    }
    io.stderr(
      `error: ${argv[0] === 'plan' ? 'cannot plan' : 'cannot read the KCP'}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

interface FleetReader {
  summary(): Promise<FleetSummary>;
  explanation(kyma: string, module: string | undefined): Promise<Explanation | undefined>;
}

/** The KCP itself (one LIST of the Kymas for status), or the fleet component (its namespace; from memory). */
async function readerOf(source: KcpSource, namespace: string): Promise<FleetReader> {
  if ('fleet' in source) {
    const get = async <T>(path: string): Promise<T | undefined> => {
      const response = await fetch(`${source.fleet}${path}`, { signal: AbortSignal.timeout(30_000) });
      if (response.status === 404 && path.startsWith('/api/kymas/')) return undefined;
      if (!response.ok)
        throw new Error(
          `fleet component ${source.fleet} answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
        );
      return (await response.json()) as T;
    };
    return {
      summary: async () => (await get<FleetSummary>('/api/fleet')) as FleetSummary,
      explanation: (kyma, module) =>
        get<Explanation>(
          `/api/kymas/${encodeURIComponent(kyma)}${module ? `?module=${encodeURIComponent(module)}` : ''}`,
        ),
    };
  }
  // Loaded only for the KCP path: the Kubernetes client library is most of the CLI's start-up time.
  const [{ KubeClient }, { kubeConfigOf }, policy] = await Promise.all([
    import('../../../shared/kube/client.ts'),
    import('../../../shared/kube/kubeconfig.ts'),
    import('../../../shared/kube/kubeconfig-policy.ts'),
  ]);
  // Exec plugins, auth-providers, local files and proxies only when allowed (ADR 31): as for runtime kubeconfigs.
  const refusal = policy.kubeconfigRefusal(source.kubeconfig, readConfig().kubeconfigExecCommands);
  if (refusal) throw new InputError(`the kubeconfig ${source.kubeconfigPath} is refused: ${refusal}`);
  // A parse error would quote the file (credentials included): say only which file is not usable.
  let kcp: Awaited<ReturnType<typeof KubeClient.from>>;
  try {
    kcp = await KubeClient.from(kubeConfigOf(source.kubeconfig));
  } catch {
    throw new InputError(
      `the kubeconfig ${source.kubeconfigPath} is not usable (not a kubeconfig, or no current cluster)`,
    );
  }
  return {
    summary: async () => summarizeFleet(await listAll<Kyma>(kcp, API_VERSION, 'Kyma', { namespace }, 1000)),
    explanation: (kyma, module) => readExplanation(kcp, namespace, kyma, module),
  };
}
