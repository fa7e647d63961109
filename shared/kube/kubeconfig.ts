// The kubeconfig reader of everything that ships (ADR 42): the current context's cluster and user, turned into what a
// connection needs (server, CA, client certificate, headers). Loading runs nothing: an exec plugin runs on connecting
// (`applyToHTTPSOptions`), after the caller's policy check. Errors name fields and context names, never a value.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { kubeconfigLocation } from '../host/config.ts';
import { runExecCredential, type ExecConfig } from './exec-credential.ts';
import { parseKubeconfig } from './kubeconfig-policy.ts';

/** What a connection needs, as `https.request` options take it. */
export interface TlsOptions {
  ca?: string | Buffer | undefined;
  cert?: string | Buffer | undefined;
  key?: string | Buffer | undefined;
  rejectUnauthorized?: boolean | undefined;
  headers?: Record<string, string | string[] | number | undefined> | undefined;
}

/** The part of a kubeconfig a client uses; @kubernetes/client-node's KubeConfig (tests) fits it too. */
export interface ClusterConfig {
  getCurrentCluster(): { readonly server: string } | null;
  getCurrentContext(): string;
  applyToHTTPSOptions(options: TlsOptions): Promise<void>;
}

interface Cluster {
  server: string;
  ca?: Buffer | undefined;
  insecure: boolean;
}
interface User {
  token?: string | undefined;
  cert?: Buffer | undefined;
  key?: Buffer | undefined;
  basic?: string | undefined;
  exec?: ExecConfig | undefined;
}
type Entry = Record<string, unknown>;

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

export class KubeConfig implements ClusterConfig {
  private context = '';
  private cluster: Cluster | undefined;
  private user: User = {};

  /** A kubeconfig's YAML text; relative file names in it are read from `dir` (a file's own directory). */
  loadFromString(text: string, dir = process.cwd()): void {
    this.loadFromDocument(parseKubeconfig(text), dir);
  }

  /** A kubeconfig already parsed (parseKubeconfig): read once for the policy check and for loading. */
  loadFromDocument(doc: object, dir = process.cwd()): void {
    const config = doc as Entry;
    const context = typeof config['current-context'] === 'string' ? config['current-context'] : '';
    const contexts = named(config['contexts'], 'context');
    const chosen = contexts.get(context) ?? (contexts.size === 1 && !context ? [...contexts.values()][0] : undefined);
    if (!chosen)
      throw new Error(
        context
          ? `the kubeconfig has no context named ${JSON.stringify(context)}`
          : 'the kubeconfig has no current-context',
      );
    const clusterName = String(chosen['cluster'] ?? '');
    const cluster = named(config['clusters'], 'cluster').get(clusterName);
    if (!cluster)
      throw new Error(
        `the kubeconfig's context ${JSON.stringify(context)} names cluster ${JSON.stringify(clusterName)}, which it does not define`,
      );
    if (typeof cluster['server'] !== 'string' || !cluster['server'])
      throw new Error(`the kubeconfig's cluster ${JSON.stringify(clusterName)} has no server`);
    const userName = String(chosen['user'] ?? '');
    const user = named(config['users'], 'user').get(userName) ?? {};
    this.context = context || [...contexts.keys()][0] || '';
    this.cluster = {
      server: cluster['server'],
      ca: bytes(cluster, 'certificate-authority', dir),
      insecure: cluster['insecure-skip-tls-verify'] === true,
    };
    this.user = userOf(user, dir);
  }

  loadFromFile(file: string): void {
    this.loadFromString(readFileSync(file, 'utf8'), dirname(file));
  }

  /** $KUBECONFIG (its first file), else ~/.kube/config, else the pod's service account (in-cluster). */
  loadFromDefault(): void {
    const { file } = kubeconfigLocation();
    if (file) return this.loadFromFile(file);
    const home = join(homedir(), '.kube', 'config');
    if (existsSync(home)) return this.loadFromFile(home);
    this.loadFromCluster();
  }

  /** The pod's own service account and the API server of KUBERNETES_SERVICE_HOST. */
  loadFromCluster(): void {
    const { serviceHost: host, servicePort: port } = kubeconfigLocation();
    if (!host)
      throw new Error(
        'no kubeconfig: KUBECONFIG is unset, ~/.kube/config is absent and this is not a pod (KUBERNETES_SERVICE_HOST is unset)',
      );
    this.context = 'inCluster';
    this.cluster = {
      server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
      ca: readFileSync(join(SERVICE_ACCOUNT, 'ca.crt')),
      insecure: false,
    };
    this.user = { token: readFileSync(join(SERVICE_ACCOUNT, 'token'), 'utf8').trim() };
  }

  getCurrentCluster(): { readonly server: string } | null {
    return this.cluster ? { server: this.cluster.server } : null;
  }

  getCurrentContext(): string {
    return this.context;
  }

  /** CA, client certificate and Authorization header into `options`; runs the exec credential plugin, if any. */
  async applyToHTTPSOptions(options: TlsOptions): Promise<void> {
    const user = this.user.exec ? { ...this.user, ...(await runExecCredential(this.user.exec)) } : this.user;
    if (this.cluster?.ca) options.ca = this.cluster.ca;
    if (this.cluster?.insecure) options.rejectUnauthorized = false;
    if (user.cert) options.cert = user.cert;
    if (user.key) options.key = user.key;
    const authorization = user.token ? `Bearer ${user.token}` : user.basic ? `Basic ${user.basic}` : undefined;
    if (authorization) options.headers = { ...options.headers, authorization };
  }
}

/** A KubeConfig of the YAML `text` (see loadFromString). */
export function kubeConfigOf(text: string, dir?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text, dir);
  return kc;
}

function userOf(user: Entry, dir: string): User {
  if (user['auth-provider'])
    throw new Error(
      "the kubeconfig's user has an auth-provider, which is not supported; use a token, a client certificate or an exec plugin",
    );
  const token = typeof user['token'] === 'string' && user['token'] ? user['token'] : fileText(user, 'token-file', dir);
  const basic =
    typeof user['username'] === 'string' && typeof user['password'] === 'string'
      ? Buffer.from(`${user['username']}:${user['password']}`).toString('base64')
      : undefined;
  const exec = user['exec'] && typeof user['exec'] === 'object' ? (user['exec'] as ExecConfig) : undefined;
  return { token, basic, exec, cert: bytes(user, 'client-certificate', dir), key: bytes(user, 'client-key', dir) };
}

/** `<field>-data` (base64) or the file `<field>` names. */
function bytes(entry: Entry, field: string, dir: string): Buffer | undefined {
  const data = entry[`${field}-data`];
  if (typeof data === 'string' && data) return Buffer.from(data, 'base64');
  const file = entry[field];
  return typeof file === 'string' && file ? readFileSync(isAbsolute(file) ? file : join(dir, file)) : undefined;
}

function fileText(entry: Entry, field: string, dir: string): string | undefined {
  return bytes(entry, field, dir)?.toString('utf8').trim();
}

/** name → body of a kubeconfig list (`contexts`, `clusters`, `users`). */
function named(list: unknown, key: string): Map<string, Entry> {
  const found = new Map<string, Entry>();
  if (!Array.isArray(list)) return found;
  for (const item of list as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const { name, [key]: body } = item as Entry;
    if (typeof name === 'string' && body && typeof body === 'object') found.set(name, body as Entry);
  }
  return found;
}
