// The fleet CLI (issue 9): `status` and `why` against the KCP. Reads only; the decisions are shared/fleet's.
import { loadKubeConfig } from '../controlplane/index.ts';
import type { Kyma } from '../domain/kyma.ts';
import { API_VERSION } from '../domain/vocabulary.ts';
import { explanationText } from '../fleet/explain.ts';
import { readExplanation } from '../fleet/read.ts';
import { KYMA_STATES, MODULE_STATES, summarizeFleet } from '../fleet/summary.ts';
import { fleetText } from '../fleet/table.ts';
import { KubeClient } from '../k8s/client.ts';
import { listAll } from '../k8s/list.ts';
import { InputError } from '../module/cli/rules.ts';
import { FLEET_HELP, parseFleetRequest, type FleetRequest } from './args.ts';
import { kcpKubeconfig } from './kubeconfig.ts';

export interface FleetIo {
  stdout: (text: string) => void;
  stderr: (line: string) => void;
  /** $KUBECONFIG */
  kubeconfigEnv: string | undefined;
}

/** Exit code: 0 answered, 1 the KCP could not be read (or the Kyma does not exist), 2 refused input. */
export async function runFleetCommand(argv: readonly string[], io: FleetIo): Promise<number> {
  try {
    const request = parseFleetRequest(argv);
    if (request.command === 'help') {
      io.stdout(FLEET_HELP);
      return 0;
    }
    const { text } = await kcpKubeconfig(request.kubeconfig, io.kubeconfigEnv);
    const kcp = await KubeClient.from(loadKubeConfig(text));
    return request.command === 'status' ? await status(kcp, request, io) : await why(kcp, request, io);
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr(`error: ${error.message}`);
      return 2;
    }
    io.stderr(`error: cannot read the KCP: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function status(kcp: KubeClient, request: Extract<FleetRequest, { command: 'status' }>, io: FleetIo): Promise<number> {
  const kymas = await listAll<Kyma>(kcp, API_VERSION, 'Kyma', { namespace: request.namespace }, 1000);
  const summary = summarizeFleet(kymas);
  io.stdout(request.json ? `${JSON.stringify(summary, null, 2)}\n` : `${fleetText(summary, { kyma: KYMA_STATES, module: MODULE_STATES })}\n`);
  return 0;
}

async function why(kcp: KubeClient, request: Extract<FleetRequest, { command: 'why' }>, io: FleetIo): Promise<number> {
  const explanation = await readExplanation(kcp, request.namespace, request.kyma, request.module);
  if (!explanation) {
    io.stderr(`error: no Kyma ${request.namespace}/${request.kyma}`);
    return 1;
  }
  io.stdout(request.json ? `${JSON.stringify(explanation, null, 2)}\n` : `${explanationText(explanation)}\n`);
  return 0;
}
