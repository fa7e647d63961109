// `npm run bench -- --kymas N --modules M --runtimes K [--edits E] ...`: the run's size and windows. Pure.
import { parseArgs } from 'node:util';

export interface BenchSettings {
  /** Kymas, spread round-robin over the runtime API servers, each in its runtime namespace (docs/adr/0013). */
  kymas: number;
  /** Sample modules every Kyma asks for (N × M Manifests); edits add one more module. */
  modules: number;
  /** Runtime API servers (each with controller-manager, scheduler and kwok, so readiness is real). */
  runtimes: number;
  /** Runtime-Kyma edits (add one more module) after convergence, timed to that module Ready. */
  edits: number;
  /** The edits after convergence go one after the other, evenly over this long (0: all at once, the default), so
   * they meet every part of the minute's drift checks as users' edits would. */
  editsOverSeconds: number;
  /** The edits after convergence start at this second of a UTC minute (the resync ticks at second 0), so a pair of runs
   * meets the same part of the minute's drift checks; -1 (the default): as soon as all are Ready. */
  editsAtSecond: number;
  /** The same edits made while the fleet converges (on Kymas Ready once a tenth of the fleet is): user changes under load. */
  busyEdits: number;
  /** Idle window after everything is Ready: requests/s and flapping are measured over it. */
  idleSeconds: number;
  /** The KCP kube-apiserver's sustained write rate is measured for this long. */
  ceilingSeconds: number;
  /** Give up waiting for convergence after this long. */
  timeoutSeconds: number;
  /** Where the JSON and markdown results go. */
  out: string;
  /** One runtime API server per Kyma, each Kyma in its runtime's kyma-system as upstream lays them out (--runtime-per-kyma;
   * --runtimes is then the number of Kymas). Default: Kymas share runtime API servers, each in a namespace of its own. */
  runtimePerKyma: boolean;
  /** How module workloads become ready on the runtimes: 'real' (controller-manager, scheduler, kwok's fake node: real
   * ReplicaSets and Pods, the default) or 'simulated' (kwok alone marks them rolled out; much cheaper, see docs/performance.md). */
  rollouts: 'real' | 'simulated';
  /** After the idle window, move the first module's regular channel to a new version and time the fleet's upgrade and
   * its API rate (--release; spread releases, ADR 30). */
  release: boolean;
  /** Instead of a convergence run: create the Kymas with a synthesized installed status and time a `plan` of a channel
   * bump (bench/plan.ts; issue 25). */
  plan: boolean;
  /** What routes the events: 'local' (the local runner: broker, sources and all functions in this process, the default)
   * or 'knative' (Knative Eventing's own Broker, channel and sources; each function in processes of its own, as its image
   * runs it; issue 35). */
  engine: 'local' | 'knative';
  /** Processes per function with --engine knative (what Knative's autoscaler would run), connections spread over them. */
  instances: number;
}

export const DEFAULTS: BenchSettings = {
  kymas: 40,
  modules: 3,
  runtimes: 2,
  edits: 10,
  editsOverSeconds: 0,
  editsAtSecond: -1,
  busyEdits: 0,
  idleSeconds: 30,
  ceilingSeconds: 10,
  timeoutSeconds: 1800,
  out: 'bench/results',
  runtimePerKyma: false,
  rollouts: 'real',
  release: false,
  plan: false,
  engine: 'local',
  instances: 1,
};

const LIMITS: Record<
  Exclude<keyof BenchSettings, 'out' | 'runtimePerKyma' | 'rollouts' | 'release' | 'plan' | 'engine'>,
  [number, number]
> = {
  kymas: [1, 20_000],
  instances: [1, 5],
  modules: [1, 20],
  runtimes: [1, 40],
  edits: [0, 20_000],
  editsOverSeconds: [0, 3600],
  editsAtSecond: [0, 59],
  busyEdits: [0, 20_000],
  idleSeconds: [1, 3600],
  ceilingSeconds: [1, 600],
  timeoutSeconds: [10, 86_400],
};

const FLAGS: Record<
  string,
  Exclude<keyof BenchSettings, 'runtimePerKyma' | 'rollouts' | 'release' | 'plan' | 'engine'>
> = {
  kymas: 'kymas',
  modules: 'modules',
  runtimes: 'runtimes',
  edits: 'edits',
  'edits-over-seconds': 'editsOverSeconds',
  'edits-at-second': 'editsAtSecond',
  'busy-edits': 'busyEdits',
  'idle-seconds': 'idleSeconds',
  'ceiling-seconds': 'ceilingSeconds',
  'timeout-seconds': 'timeoutSeconds',
  out: 'out',
  instances: 'instances',
};

export const USAGE = `npm run bench -- [--kymas N] [--modules M] [--runtimes K] [--edits E] [--edits-over-seconds S] [--edits-at-second S] [--busy-edits B] [--idle-seconds S] [--ceiling-seconds S] [--timeout-seconds S] [--out DIR] [--runtime-per-kyma] [--rollouts real|simulated] [--release] [--plan] [--engine local|knative] [--instances N]
defaults: ${Object.entries(FLAGS)
  .map(([flag, key]) => `--${flag} ${String(DEFAULTS[key])}`)
  .join(' ')}`;

/** The settings of a command line; throws a one-line error naming the flag and the accepted range. */
export function parseBenchArgs(argv: readonly string[]): BenchSettings {
  const options = {
    ...Object.fromEntries(Object.keys(FLAGS).map((f) => [f, { type: 'string' as const }])),
    'runtime-per-kyma': { type: 'boolean' as const },
    release: { type: 'boolean' as const },
    plan: { type: 'boolean' as const },
    rollouts: { type: 'string' as const },
    engine: { type: 'string' as const },
  };
  const { values } = parseArgs({ args: [...argv], options, strict: true });
  const settings: BenchSettings = {
    ...DEFAULTS,
    runtimePerKyma: values['runtime-per-kyma'] === true,
    release: values.release === true,
    plan: values.plan === true,
  };
  const rollouts = values.rollouts ?? DEFAULTS.rollouts;
  if (rollouts !== 'real' && rollouts !== 'simulated')
    throw new Error(`--rollouts ${JSON.stringify(rollouts)}: expected real or simulated`);
  settings.rollouts = rollouts;
  const engine = values.engine ?? DEFAULTS.engine;
  if (engine !== 'local' && engine !== 'knative')
    throw new Error(`--engine ${JSON.stringify(engine)}: expected local or knative`);
  settings.engine = engine;
  for (const [flag, key] of Object.entries(FLAGS)) {
    const raw = (values as Record<string, string | undefined>)[flag];
    if (raw === undefined) continue;
    if (key === 'out') {
      settings.out = raw;
      continue;
    }
    const [min, max] = LIMITS[key];
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`--${flag} ${JSON.stringify(raw)}: expected a whole number from ${min} to ${max}`);
    settings[key] = value;
  }
  if (settings.runtimePerKyma) {
    if ((values as Record<string, unknown>).runtimes !== undefined)
      throw new Error('--runtimes: not with --runtime-per-kyma (one runtime API server per Kyma)');
    settings.runtimes = settings.kymas;
    if (settings.kymas > LIMITS.runtimes[1])
      throw new Error(`--runtime-per-kyma: at most ${LIMITS.runtimes[1]} Kymas (one runtime API server each)`);
  }
  if (settings.instances > 1 && settings.engine !== 'knative')
    throw new Error('--instances: only with --engine knative (the local runner runs each function once, in process)');
  if (settings.engine === 'knative' && settings.plan)
    throw new Error('--plan: not with --engine knative (a plan routes no events)');
  if (settings.edits > settings.kymas)
    throw new Error(`--edits ${settings.edits}: at most one edit per Kyma (--kymas ${settings.kymas})`);
  if (settings.edits + settings.busyEdits > settings.kymas)
    throw new Error(
      `--busy-edits ${settings.busyEdits}: at most one edit per Kyma (--kymas ${settings.kymas}, --edits ${settings.edits})`,
    );
  return settings;
}

/** The LIFECYCLE_* settings the bench runs with (configuration docs/operating.md names; none is a secret), stated in the result. */
export const lifecycleEnvironment = (env: NodeJS.ProcessEnv = process.env): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0].startsWith('LIFECYCLE_') && e[1] !== undefined),
  );
