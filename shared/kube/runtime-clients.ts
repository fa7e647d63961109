import { KubeConfig } from './kubeconfig.ts';
import { createHash } from 'node:crypto';
import { OWN_RUNTIME, scopeOfSecret, type RuntimeScope } from '../core/runtime-scope.ts';
import { LABEL, USER_AGENT } from '../core/vocabulary.ts';
import { KubeClient } from './client.ts';
import type { ExecAllowed } from './exec-allowlist.ts';
import { assertKubeconfigAllowed, KubeconfigRefusedError, parseKubeconfig } from './kubeconfig-policy.ts';

interface Secret {
  metadata: { name: string; namespace?: string; resourceVersion?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

/** A usable runtime: its client, the kubeconfig Secret's name, and where this Kyma's objects live on it. */
export type RuntimeAccess = { client: KubeClient; secret: string; scope: RuntimeScope } | { missing: string };

/** One client per distinct kubeconfig in this process (ADR 18), keyed by a SHA-256 of its bytes, never by the bytes:
 * Kymas and functions that reach a runtime with the same kubeconfig share its connections and API discovery. */
class KubeconfigClients {
  private readonly entries = new Map<string, { client: Promise<KubeClient>; users: Set<string> }>();

  acquire(
    fingerprint: string,
    encoded: string,
    user: string,
    execCommands: ExecAllowed,
    userAgent: string,
  ): Promise<KubeClient> {
    let entry = this.entries.get(fingerprint);
    if (!entry) {
      const client = clientFrom(encoded, execCommands, userAgent);
      this.entries.set(fingerprint, (entry = { client, users: new Set() }));
      client.catch(() => this.entries.get(fingerprint)?.client === client && this.entries.delete(fingerprint));
    }
    entry.users.add(user);
    return entry.client;
  }

  /** A Kyma no longer uses the client (its Secret changed); the last user's release forgets it. `broken` forgets it
   * for every user (authentication or connection errors): their next call builds a fresh one. */
  release(fingerprint: string, user: string, broken: boolean): void {
    const entry = this.entries.get(fingerprint);
    entry?.users.delete(user);
    if (entry && (broken || entry.users.size === 0)) this.entries.delete(fingerprint);
  }
}

const byKubeconfig = new KubeconfigClients();
let instances = 0;

/** Clients for runtime clusters from a Kyma's kubeconfig Secret (label `operator.kyma-project.io/kyma-name=<kyma>`,
 * key `config`), cached per Kyma while the Secret's resourceVersion is unchanged; `evict` drops one after
 * authentication or connection errors. Errors never carry the kubeconfig. */
export class RuntimeClients {
  private readonly cache = new Map<string, { version: string; fingerprint: string; client: KubeClient }>();
  private readonly kcp: KubeClient;
  /** Tells this instance's Kymas apart from other functions' in the process-wide clients. */
  private readonly id = `${++instances}`;

  /** Exec credential plugins a runtime kubeconfig may run: command, exact arguments, env names (LIFECYCLE_KUBECONFIG_EXEC_COMMANDS, LIFECYCLE_KUBECONFIG_EXEC_ENV). */
  private readonly execCommands: ExecAllowed;

  /** The user agent of its clients: the functions' by default; a tool's own (the plan's) keeps clients of its own. */
  private readonly userAgent: string;

  constructor(kcp: KubeClient, execCommands: ExecAllowed = [], userAgent = USER_AGENT) {
    this.kcp = kcp;
    this.execCommands = execCommands;
    this.userAgent = userAgent;
  }

  async forKyma(namespace: string, kymaName: string): Promise<RuntimeAccess> {
    const secrets = await this.kcp.list<Secret>('v1', 'Secret', {
      namespace,
      labelSelector: `${LABEL.kymaName}=${kymaName}`,
    });
    if (secrets.items.length === 0)
      return { missing: `no kubeconfig Secret with label ${LABEL.kymaName}=${kymaName} in ${namespace}` };
    if (secrets.items.length > 1)
      throw new Error(
        `${secrets.items.length} kubeconfig Secrets carry label ${LABEL.kymaName}=${kymaName} in ${namespace}; expected one`,
      );
    const [secret] = secrets.items as [Secret];
    const scope = scopeOfSecret(secret.metadata.name, secret.metadata.annotations);
    const version = `${secret.metadata.name}@${secret.metadata.resourceVersion ?? ''}`;
    const cached = this.cache.get(`${namespace}/${kymaName}`);
    if (cached?.version === version) return { client: cached.client, secret: secret.metadata.name, scope };
    const encoded = secret.data?.config;
    if (!encoded) throw new Error(`kubeconfig Secret ${secret.metadata.name} of Kyma ${kymaName} has no key "config"`);
    const fingerprint = fingerprintOf(encoded, this.userAgent);
    const user = `${this.id}/${namespace}/${kymaName}`;
    if (cached && cached.fingerprint !== fingerprint) byKubeconfig.release(cached.fingerprint, user, false);
    const client = await byKubeconfig
      .acquire(fingerprint, encoded, user, this.execCommands, this.userAgent)
      .catch((error: unknown) => {
        if (error instanceof KubeconfigRefusedError)
          throw new Error(`kubeconfig Secret ${secret.metadata.name} of Kyma ${kymaName} is refused: ${error.message}`);
        throw new Error(
          `kubeconfig Secret ${secret.metadata.name} of Kyma ${kymaName} does not hold a usable kubeconfig`,
        );
      });
    this.cache.set(`${namespace}/${kymaName}`, { version, fingerprint, client });
    return { client, secret: secret.metadata.name, scope };
  }

  /** Drops the Kyma's client, and the process-wide one of its kubeconfig: the next call of any Kyma builds a fresh one. */
  evict(namespace: string, kymaName: string): void {
    const cached = this.cache.get(`${namespace}/${kymaName}`);
    this.cache.delete(`${namespace}/${kymaName}`);
    if (cached) byKubeconfig.release(cached.fingerprint, `${this.id}/${namespace}/${kymaName}`, true);
  }
}

/** The control-plane cluster as the runtime (single-cluster mode, ADR 21): the caller's own KCP client, the upstream
 * layout (kyma-system), nothing shared with other Kymas. */
export const inClusterAccess = (kcp: KubeClient): RuntimeAccess => ({ client: kcp, secret: '', scope: OWN_RUNTIME });

/** The process-wide client of a runtime kubeconfig (`encoded` as a kubeconfig Secret holds it) for `user`, and how to
 * let it go (ADR 18, ADR 42). Rejects with KubeconfigRefusedError when the policy refuses it, with an error that
 * quotes nothing when unusable. */
export async function sharedRuntimeClient(
  encoded: string,
  user: string,
  execCommands: ExecAllowed,
  userAgent = USER_AGENT,
): Promise<{ client: KubeClient; release: () => void }> {
  const fingerprint = fingerprintOf(encoded, userAgent);
  const client = await byKubeconfig.acquire(fingerprint, encoded, user, execCommands, userAgent);
  return { client, release: () => byKubeconfig.release(fingerprint, user, false) };
}

const fingerprintOf = (encoded: string, userAgent: string) =>
  createHash('sha256').update(userAgent).update('\n').update(encoded).digest('hex');

async function clientFrom(encoded: string, execCommands: ExecAllowed, userAgent: string): Promise<KubeClient> {
  const doc = parseKubeconfig(Buffer.from(encoded, 'base64').toString('utf8'));
  assertKubeconfigAllowed(doc, execCommands);
  const kc = new KubeConfig();
  kc.loadFromDocument(doc);
  return KubeClient.from(kc, { http2: true, userAgent });
}
