import { parseArgs } from 'node:util';
import { DEFAULT_CHANNEL, KCP_NAMESPACE } from '../../../shared/core/vocabulary.ts';
import { isValidHost } from '../../../shared/oci/reference.ts';
import { sampleComponent } from '../sample.ts';
import {
  channelProblem,
  componentNameProblem,
  InputError,
  moduleNameProblem,
  namespaceProblem,
  refuse,
  versionProblem,
} from '../../../shared/host/input-rules.ts';

/** One module version to package, push and describe, as the command line asked for it. */
export interface PackageRequest {
  name: string;
  version: string;
  componentName: string;
  /** The raw manifest (--manifest), or undefined for a module made of a Helm chart. */
  manifestPath: string | undefined;
  /** A module made of a Helm chart (--chart, ADR 37): the chart, its values and its CRDs. */
  chart?: ChartRequest;
  defaultCrPath: string | undefined;
  registry: { host: string; plainHttp: boolean };
  channels: { channel: string; version: string }[];
  namespace: string;
  beta: boolean;
  internal: boolean;
  requiresDowntime: boolean;
  credentialsFile: string | undefined;
  overwrite: boolean;
}

/** `--chart <dir|.tgz> [--values <file>] [--crds <file|dir>]`. */
export interface ChartRequest {
  path: string;
  valuesPath: string | undefined;
  crdsPath: string | undefined;
}

const OPTIONS = {
  name: { type: 'string' },
  version: { type: 'string' },
  manifest: { type: 'string' },
  'default-cr': { type: 'string' },
  registry: { type: 'string' },
  'plain-http': { type: 'boolean' },
  insecure: { type: 'boolean' },
  'component-name': { type: 'string' },
  channel: { type: 'string', multiple: true },
  namespace: { type: 'string' },
  'credentials-file': { type: 'string' },
  beta: { type: 'boolean' },
  internal: { type: 'boolean' },
  'requires-downtime': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  chart: { type: 'string' },
  values: { type: 'string' },
  crds: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

/** PURE. The request of a command line, or 'help'; every refusal is an InputError naming the flag and what it expects. */
export function parseRequest(argv: string[]): PackageRequest | 'help' {
  const values = parseFlags(argv);
  if (values.help) return 'help';
  const name = required(values.name, '--name');
  refuse('--name', name, moduleNameProblem(name));
  const version = required(values.version, '--version');
  refuse('--version', version, versionProblem(version, name));
  const componentName = values['component-name'] ?? sampleComponent(name);
  refuse('--component-name', componentName, componentNameProblem(componentName));
  const namespace = values.namespace ?? KCP_NAMESPACE;
  refuse('--namespace', namespace, namespaceProblem(namespace));
  const chart = chartOf(values);
  return {
    name,
    version,
    componentName,
    namespace,
    manifestPath: chart
      ? undefined
      : required(values.manifest, '--manifest', ' (or --chart for a module made of a Helm chart; see --help)'),
    ...(chart ? { chart } : {}),
    defaultCrPath: values['default-cr'],
    registry: registryOf(required(values.registry, '--registry'), Boolean(values['plain-http'] || values.insecure)),
    channels: channelsOf(values.channel ?? [DEFAULT_CHANNEL], name, version),
    beta: values.beta ?? false,
    internal: values.internal ?? false,
    requiresDowntime: values['requires-downtime'] ?? false,
    credentialsFile: values['credentials-file'],
    overwrite: values.overwrite ?? false,
  };
}

function parseFlags(argv: string[]): Values {
  try {
    return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new InputError(`${error instanceof Error ? error.message.split('. ')[0] : String(error)} (see --help)`);
  }
}

function required(value: string | undefined, flag: string, hint = ' (see --help)'): string {
  if (!value) throw new InputError(`${flag} is required${hint}`);
  return value;
}

/** A module installs a raw manifest or a Helm chart; --values and --crds belong to a chart. */
function chartOf(values: Values): ChartRequest | undefined {
  if (values.chart !== undefined && values.manifest !== undefined) {
    throw new InputError('--manifest and --chart exclude each other: a module installs a raw manifest or a Helm chart');
  }
  if (values.chart === undefined) {
    const orphan = values.values !== undefined ? '--values' : values.crds !== undefined ? '--crds' : '';
    if (orphan) throw new InputError(`${orphan} belongs to a module made of a Helm chart: pass --chart (see --help)`);
    return undefined;
  }
  return { path: required(values.chart, '--chart'), valuesPath: values.values, crdsPath: values.crds };
}

/** `[http://|https://]host[:port]`; `http://` means plain HTTP, as LIFECYCLE_OCI_REGISTRY. */
export function registryOf(text: string, plainHttp: boolean): PackageRequest['registry'] {
  const scheme = /^(https?):\/\//.exec(text)?.[1];
  const host = text.replace(/^https?:\/\//, '').replace(/\/$/, '');
  if (host.includes('/')) {
    refuse(
      '--registry',
      text,
      'expected host[:port] without a path: the lifecycle manager reads component-descriptors/<component> at the registry root',
    );
  }
  refuse(
    '--registry',
    text,
    isValidHost(host) ? '' : 'expected [http://]host[:port] (e.g. localhost:5000 or europe-docker.pkg.dev)',
  );
  if (scheme === 'https' && plainHttp) refuse('--registry', text, 'https:// contradicts --plain-http');
  return { host, plainHttp: plainHttp || scheme === 'http' };
}

/** `--channel <channel>[=<version>]`: the channels the ModuleReleaseMeta lists; without a version, the published one. */
export function channelsOf(flags: string[], name: string, version: string): PackageRequest['channels'] {
  const channels = flags.map((flag) => {
    const [channel = '', ...rest] = flag.split('=');
    const pinned = rest.length ? rest.join('=') : version;
    refuse('--channel', flag, channelProblem(channel));
    refuse('--channel', flag, pinned === version ? '' : versionProblem(pinned, name));
    return { channel, version: pinned };
  });
  const repeated = channels.find((c, i) => channels.findIndex((o) => o.channel === c.channel) !== i);
  if (repeated)
    throw new InputError(`--channel "${repeated.channel}" is given more than once: a channel has one version`);
  return channels;
}
