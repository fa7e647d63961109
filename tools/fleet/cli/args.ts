import { parseArgs } from 'node:util';
import { KCP_NAMESPACE } from '../../../shared/core/vocabulary.ts';
import { FLEET_NAME } from '../../../components/fleet/summary.ts';
import { InputError, namespaceProblem, refuse } from '../../../shared/host/input-rules.ts';
import { PLAN_HELP } from '../../../components/fleet/plan/args.ts';
import { traceUrlTemplate } from '../../../shared/host/config.ts';

/** What the fleet command line asks for. */
export type FleetRequest =
  | { command: 'help' }
  | { command: 'status'; namespace: string; json: boolean; kubeconfig: string | undefined; fleet: string | undefined }
  | {
      command: 'why';
      namespace: string;
      json: boolean;
      kubeconfig: string | undefined;
      fleet: string | undefined;
      kyma: string;
      module: string | undefined;
      traceUrl: string | undefined;
    };

const OPTIONS = {
  namespace: { type: 'string', short: 'n' },
  kubeconfig: { type: 'string' },
  fleet: { type: 'string' },
  'trace-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** PURE. The request of a command line; every refusal is an InputError naming what is wrong and what is expected. */
export function parseFleetRequest(argv: readonly string[]): FleetRequest {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') return { command: 'help' };
  const namespace = values.namespace ?? KCP_NAMESPACE;
  refuse('--namespace', namespace, namespaceProblem(namespace));
  if (values.fleet !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(values.fleet))
    throw new InputError(
      `--fleet "${values.fleet}": expected the fleet component's base URL, e.g. http://127.0.0.1:8080`,
    );
  const common = {
    namespace,
    json: values.json ?? false,
    kubeconfig: values.kubeconfig,
    fleet: values.fleet?.replace(/\/$/, ''),
  };
  if (command === 'status') {
    if (rest.length) throw new InputError(`status takes no arguments, got "${rest.join(' ')}"`);
    return { command, ...common };
  }
  if (command === 'why') {
    const [kyma, module, ...extra] = rest;
    if (!kyma) throw new InputError('why needs the name of a Kyma: why <kyma> [module]');
    if (extra.length) throw new InputError(`why takes a Kyma and at most one module, got also "${extra.join(' ')}"`);
    refuse(
      '<kyma>',
      kyma,
      FLEET_NAME.test(kyma) ? '' : 'expected the name of a Kyma (lower-case letters, digits, "-" and ".")',
    );
    if (module !== undefined)
      refuse(
        '[module]',
        module,
        FLEET_NAME.test(module) ? '' : 'expected the name of a module (lower-case letters, digits, "-" and ".")',
      );
    const traceUrl = values['trace-url'];
    if (traceUrl !== undefined) {
      try {
        traceUrlTemplate(traceUrl, '--trace-url');
      } catch (error) {
        throw new InputError(`"${traceUrl}": ${(error as Error).message}`);
      }
    }
    return { command, ...common, kyma, module, traceUrl };
  }
  throw new InputError(`unknown command "${command}": expected status, why or plan`);
}

export const FLEET_HELP = `usage: npx kyma-lifecycle-functions <command> [flags]

  status                 the fleet: Kymas by state, module installs by module, version, channel and state
  why <kyma> [module]    why a Kyma (or one of its modules) is in its state: the reason chain from resolution to
                         the runtime objects, the last events, and the trace that last changed it
${PLAN_HELP}
flags:
  -n, --namespace <ns>   the KCP namespace of the Kymas (default ${KCP_NAMESPACE})
      --kubeconfig <f>   the KCP; default $KUBECONFIG, else the embedded control plane of a running ./dev start
      --fleet <url>      ask the fleet component (answers from memory: fast for any fleet size) instead of the KCP;
                         a running ./dev start's is used when neither --kubeconfig nor $KUBECONFIG is given
      --trace-url <url>  why: link the last trace, {traceId} replaced (default $LIFECYCLE_TRACE_URL), e.g.
                         https://jaeger.example/trace/{traceId}
      --json             machine-readable output
  -h, --help             this text
`;
