import { execAllowlist, isEnvName, type ExecAllowlist } from '../kube/exec-allowlist.ts';

/** Configuration, read from the environment in this one place, validated and frozen. */
export interface Config {
  /** A kubeconfig file for an existing KCP; absent = in-cluster config (functions) or the embedded control plane. */
  readonly kubeconfigPath: string | undefined;
  /** Runtime clusters the embedded control plane starts. */
  readonly embeddedRuntimes: number;
  /** `./dev start` prints what blocks the sample Kyma when it is not Ready after this many seconds (and keeps running). */
  readonly embeddedWhySeconds: number;
  readonly logLevel: string;
  /** Namespace of Kymas, templates, Manifests and kubeconfig Secrets in the KCP. */
  readonly kcpNamespace: string;
  /** The module registry: `host[:port][/path]`; `http://` in LIFECYCLE_OCI_REGISTRY means plain HTTP. */
  readonly registry: {
    readonly base: string;
    readonly plainHttp: boolean;
    readonly credentialSecret: string | undefined;
    /** Registry hosts besides the configured one that descriptors may name and the registry may redirect to (blob
     * storage); `host[:port]`, LIFECYCLE_OCI_REGISTRY_ALLOWLIST, comma-separated. Default: none. */
    readonly allowlist: readonly string[];
  };
  /** Broker ingress for fan-out events (Knative sets K_SINK). */
  readonly sinkUrl: string | undefined;
  /** Port the function host listens on (Knative sets PORT). */
  readonly port: number;
  /** Calls a function instance runs at once, the user lane's first (LIFECYCLE_CALLS_AT_ONCE, default 32; 0 = no
   * limit; ADR 72). Set per Service: its containerConcurrency only bounds what an instance holds. */
  readonly callsAtOnce: number;
  /** A function writing in the user lane sends the API server's event about its write itself, at once
   * (LIFECYCLE_ANNOUNCE_USER_WRITES, default false; the shipped ConfigMap sets it for Knative's ApiServerSource; ADR 73). */
  readonly announceUserWrites: boolean;
  /** Each function process counts its Kubernetes requests by function, API server, verb and resource and reports them
   * on /metrics as `lifecycle_kube_requests_total` (LIFECYCLE_COUNT_REQUESTS, default false; the bench sets it). */
  readonly countRequests: boolean;
  /** Ready objects are re-checked for drift once per this many minutes (non-Ready ones every minute). */
  readonly driftPeriodMinutes: number;
  /** apply-remote watches a module's workload roll out this long in the call before it writes Processing and retries
   * (LIFECYCLE_ROLLOUT_WATCH_SECONDS, default 2; 0 = never; ADR 61). */
  readonly rolloutWatchMs: number;
  /** At most this many resync events per tick; over it, the objects quiet the longest go first. */
  readonly resyncMaxEvents: number;
  /** How fast a ModuleReleaseMeta change reaches the fleet (ADR 30): Kymas per minute fleet-wide
   * (LIFECYCLE_RELEASE_KYMAS_PER_MINUTE, default 1000) and per runtime API server
   * (LIFECYCLE_RELEASE_KYMAS_PER_RUNTIME_PER_MINUTE, default 100); 0 = no limit. */
  readonly releaseBudget: { readonly kymasPerMinute: number; readonly kymasPerRuntimePerMinute: number };
  /** Exec credential plugins runtime kubeconfigs may run (ADR 31): LIFECYCLE_KUBECONFIG_EXEC_COMMANDS (`command args`,
   * comma-separated) and LIFECYCLE_KUBECONFIG_EXEC_ENV (variables `exec.env` may set). Default none: exec,
   * auth-provider, local files and proxy-url are refused. */
  readonly kubeconfigExecCommands: ExecAllowlist;
  /** A Kyma deleting longer than this gets the finalizers of its stuck module CRs stripped; 0 = never. */
  readonly purgeGracePeriodMs: number;
  /** A Manifest its Kyma's status has not referenced for this long is an orphan: Error, never installed (upstream: 5 min). */
  readonly orphanGraceMs: number;
  /** Module CR kinds purge never touches: `<plural>.<group>` or `*.<group>`. */
  readonly purgeSkip: readonly string[];
  /** Maintenance-window policy file (JSON, upstream format); absent = windows off, downtime upgrades proceed. */
  readonly maintenancePolicyPath: string | undefined;
  /** A window counts only while at least this many minutes of it are left. */
  readonly maintenanceMinWindowMinutes: number;
  /** Name of a Secret in the KCP namespace copied to every runtime's kyma-system and added to module workloads. */
  readonly runtimeImagePullSecret: string | undefined;
  /** Functions read Manifests, the catalog and kubeconfig Secrets from watch caches (ADR 15); LIFECYCLE_KCP_READ_CACHE=false reads every time. */
  readonly kcpReadCache: boolean;
  /** The local broker lets a newer event about an object replace its not yet started delivery (ADR 17); off = one
   * delivery per event, as Knative's brokers do. */
  readonly localBrokerCoalesce: boolean;
  /** The local broker's deliveries in flight over all Triggers, the oldest Kyma's work first across every function
   * (LIFECYCLE_LOCAL_BROKER_MAX_IN_FLIGHT; 0 = only the per-Trigger limits). */
  readonly localBrokerMaxInFlight: number;
  /** Upstream's restricted modules (LIFECYCLE_RESTRICTED_MODULES, comma-separated; default none): a listed module
   * reaches only the Kymas its ModuleReleaseMeta's kymaSelector matches; a module not listed whose release meta has a
   * kymaSelector reaches none. */
  readonly restrictedModules: readonly string[];
  /** Single-cluster mode (ADR 21): Manifests labelled in-cluster may install into the KCP cluster itself
   * (LIFECYCLE_IN_CLUSTER=true; default false — a control plane of runtimes does not install modules into itself). */
  readonly inCluster: boolean;
  /** The helm binary that renders modules made of charts (LIFECYCLE_HELM_BINARY; default: the one bundled with
   * the function, else `helm` on PATH; ADR 22). */
  readonly helmBinary: string | undefined;
  /** PATH, for tools the functions run by name (helm). */
  readonly searchPath: string;
  /** Port of the fleet component in the local runner (LIFECYCLE_FLEET_PORT; 0 = any free port, the default). */
  readonly fleetPort: number;
  /** OpenTelemetry trace export over OTLP/HTTP (ADR 59): on when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
   * OTEL_EXPORTER_OTLP_ENDPOINT is set, unless OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. */
  readonly traces: TraceExport | undefined;
  /** Where `why` links a trace: LIFECYCLE_TRACE_URL, a URL with `{traceId}` (e.g. Jaeger's
   * `https://jaeger.example/trace/{traceId}`); absent = the id alone. */
  readonly traceUrl: string | undefined;
}

export interface TraceExport {
  /** Where spans are POSTed (the traces endpoint itself: `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`). */
  readonly url: string;
  /** OTEL_SERVICE_NAME; absent = each function's own name. */
  readonly serviceName: string | undefined;
  /** OTEL_BSP_SCHEDULE_DELAY: milliseconds between batches (default 5000). */
  readonly scheduleDelayMs: number;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const embeddedRuntimes = integer(env, 'LIFECYCLE_EMBEDDED_RUNTIMES', '1', 0, 20);
  const registry = env.LIFECYCLE_OCI_REGISTRY ?? '';
  return Object.freeze({
    kubeconfigPath: env.KUBECONFIG || undefined,
    embeddedRuntimes,
    embeddedWhySeconds: integer(env, 'LIFECYCLE_EMBEDDED_WHY_SECONDS', '120', 0, 3600),
    logLevel: env.LOG_LEVEL ?? 'info',
    kcpNamespace: env.LIFECYCLE_KCP_NAMESPACE || 'kcp-system',
    registry: Object.freeze({
      base: registry.replace(/^https?:\/\//, '').replace(/\/$/, ''),
      plainHttp: registry.startsWith('http://'),
      credentialSecret: env.LIFECYCLE_OCI_REGISTRY_CRED_SECRET || undefined,
      allowlist: Object.freeze(hosts(env, 'LIFECYCLE_OCI_REGISTRY_ALLOWLIST')),
    }),
    sinkUrl: env.K_SINK || undefined,
    port: integer(env, 'PORT', '8080', 0, 65535),
    callsAtOnce: integer(env, 'LIFECYCLE_CALLS_AT_ONCE', '32', 0, 100_000),
    announceUserWrites: flag(env, 'LIFECYCLE_ANNOUNCE_USER_WRITES', false),
    countRequests: flag(env, 'LIFECYCLE_COUNT_REQUESTS', false),
    driftPeriodMinutes: integer(env, 'LIFECYCLE_DRIFT_PERIOD_MINUTES', '5', 1, 1440),
    rolloutWatchMs: integer(env, 'LIFECYCLE_ROLLOUT_WATCH_SECONDS', '2', 0, 60) * 1000,
    resyncMaxEvents: integer(env, 'LIFECYCLE_RESYNC_MAX_EVENTS', '250', 1, 1_000_000),
    releaseBudget: Object.freeze({
      kymasPerMinute: integer(env, 'LIFECYCLE_RELEASE_KYMAS_PER_MINUTE', '1000', 0, 1_000_000),
      kymasPerRuntimePerMinute: integer(env, 'LIFECYCLE_RELEASE_KYMAS_PER_RUNTIME_PER_MINUTE', '100', 0, 1_000_000),
    }),
    kubeconfigExecCommands: kubeconfigExec(env),
    purgeGracePeriodMs: integer(env, 'LIFECYCLE_PURGE_GRACE_SECONDS', '300', 0, 30 * 86400) * 1000,
    orphanGraceMs: integer(env, 'LIFECYCLE_ORPHAN_GRACE_SECONDS', '300', 1, 30 * 86400) * 1000,
    purgeSkip: Object.freeze(
      (env.LIFECYCLE_PURGE_SKIP ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    maintenancePolicyPath: env.LIFECYCLE_MAINTENANCE_POLICY || undefined,
    runtimeImagePullSecret: env.LIFECYCLE_RUNTIME_IMAGE_PULL_SECRET || undefined,
    maintenanceMinWindowMinutes: integer(env, 'LIFECYCLE_MAINTENANCE_MIN_WINDOW_MINUTES', '20', 0, 1440),
    kcpReadCache: flag(env, 'LIFECYCLE_KCP_READ_CACHE', true),
    localBrokerCoalesce: flag(env, 'LIFECYCLE_LOCAL_BROKER_COALESCE', true),
    localBrokerMaxInFlight: integer(env, 'LIFECYCLE_LOCAL_BROKER_MAX_IN_FLIGHT', '0', 0, 10_000),
    restrictedModules: Object.freeze(
      (env.LIFECYCLE_RESTRICTED_MODULES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    fleetPort: integer(env, 'LIFECYCLE_FLEET_PORT', '0', 0, 65535),
    inCluster: flag(env, 'LIFECYCLE_IN_CLUSTER', false),
    helmBinary: env.LIFECYCLE_HELM_BINARY || undefined,
    searchPath: env.PATH ?? '',
    traces: traceExport(env),
    traceUrl: traceUrlTemplate(env.LIFECYCLE_TRACE_URL || undefined, 'LIFECYCLE_TRACE_URL'),
  });
}

/** A trace link template (LIFECYCLE_TRACE_URL, `why --trace-url`): an http(s) URL holding `{traceId}`. */
export function traceUrlTemplate(template: string | undefined, name: string): string | undefined {
  if (template === undefined) return undefined;
  if (!template.includes('{traceId}') || !URL.canParse(template) || !/^https?:\/\//.test(template))
    throw new Error(`${name} must be an http(s) URL holding {traceId}, e.g. https://jaeger.example/trace/{traceId}`);
  return template;
}

/** The OTEL_* variables the functions honour (the exporter reads OTEL_EXPORTER_OTLP_HEADERS itself, never logged). */
function traceExport(env: NodeJS.ProcessEnv): TraceExport | undefined {
  const exporter = env.OTEL_TRACES_EXPORTER || 'otlp';
  if (exporter !== 'otlp' && exporter !== 'none')
    throw new Error(
      `OTEL_TRACES_EXPORTER must be otlp or none (the functions export OTLP over HTTP), got "${exporter}"`,
    );
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base}/v1/traces` : undefined);
  if (!url || exporter === 'none' || flag(env, 'OTEL_SDK_DISABLED', false)) return undefined;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new Error('OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL');
  return Object.freeze({
    url,
    serviceName: env.OTEL_SERVICE_NAME || undefined,
    scheduleDelayMs: integer(env, 'OTEL_BSP_SCHEDULE_DELAY', '5000', 1, 600_000),
  });
}

/** The module packaging CLI's registry login (tools/module/cli): MODULE_REGISTRY_USERNAME and MODULE_REGISTRY_PASSWORD. */
export function readModuleRegistryLogin(env: NodeJS.ProcessEnv = process.env): {
  username: string | undefined;
  password: string | undefined;
} {
  return { username: env.MODULE_REGISTRY_USERNAME || undefined, password: env.MODULE_REGISTRY_PASSWORD || undefined };
}

/** LIFECYCLE_KUBECONFIG_EXEC_COMMANDS and LIFECYCLE_KUBECONFIG_EXEC_ENV, parsed (exec-allowlist.ts). */
function kubeconfigExec(env: NodeJS.ProcessEnv): ExecAllowlist {
  const list = (name: string) =>
    (env[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const names = list('LIFECYCLE_KUBECONFIG_EXEC_ENV');
  const bad = names.find((name) => !isEnvName(name));
  if (bad !== undefined)
    throw new Error(
      `LIFECYCLE_KUBECONFIG_EXEC_ENV must list environment variable names (letters, digits, _), comma-separated, got "${bad}"`,
    );
  try {
    return execAllowlist(list('LIFECYCLE_KUBECONFIG_EXEC_COMMANDS'), names);
  } catch (error) {
    throw new Error(
      `LIFECYCLE_KUBECONFIG_EXEC_COMMANDS must list commands, each optionally followed by its exact arguments (single spaces), comma-separated: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

const HOST = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

function hosts(env: NodeJS.ProcessEnv, name: string): string[] {
  const list = (env[name] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = list.find((h) => !HOST.test(h));
  if (bad !== undefined)
    throw new Error(`${name} must list registry hosts (host[:port], comma-separated), got "${bad}"`);
  return list;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (text !== 'true' && text !== 'false') throw new Error(`${name} must be true or false, got "${text}"`);
  return text === 'true';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: string, min: number, max: number): number {
  const text = env[name] ?? fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

/** Where KubeConfig.loadFromDefault looks: KUBECONFIG's first file, else the pod's API server (Kubernetes sets
 * KUBERNETES_SERVICE_HOST/PORT in every pod). */
export function kubeconfigLocation(env: NodeJS.ProcessEnv = process.env): {
  file: string | undefined;
  serviceHost: string | undefined;
  servicePort: string;
} {
  return {
    file: (env.KUBECONFIG ?? '').split(':').find(Boolean),
    serviceHost: env.KUBERNETES_SERVICE_HOST || undefined,
    servicePort: env.KUBERNETES_SERVICE_PORT || '443',
  };
}

/** The environment an exec credential plugin starts from: this process's own, as kubectl passes it. */
export function pluginEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string | undefined> {
  return { ...env };
}
