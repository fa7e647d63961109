import { KubeConfig } from '@kubernetes/client-node';
import { scopeOfSecret, type RuntimeScope } from '../domain/runtime-scope.ts';
import { LABEL } from '../domain/vocabulary.ts';
import { KubeClient } from './client.ts';

interface Secret {
  metadata: { name: string; namespace?: string; resourceVersion?: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

/** A usable runtime: its client, the kubeconfig Secret's name, and where this Kyma's objects live on it. */
export type RuntimeAccess = { client: KubeClient; secret: string; scope: RuntimeScope } | { missing: string };

/**
 * Clients for runtime clusters, built from the kubeconfig Secret of a Kyma (label
 * `operator.kyma-project.io/kyma-name=<kyma>`, key `config`) and cached per Kyma. A cached client is reused only
 * while the Secret's resourceVersion is unchanged (rotation is picked up on the next call), and `evict` drops it
 * after authentication or connection errors. Errors never carry the kubeconfig.
 */
export class RuntimeClients {
  private readonly cache = new Map<string, { version: string; client: KubeClient }>();
  private readonly kcp: KubeClient;

  constructor(kcp: KubeClient) {
    this.kcp = kcp;
  }

  async forKyma(namespace: string, kymaName: string): Promise<RuntimeAccess> {
    const secrets = await this.kcp.list<Secret>('v1', 'Secret', { namespace, labelSelector: `${LABEL.kymaName}=${kymaName}` });
    if (secrets.items.length === 0) return { missing: `no kubeconfig Secret with label ${LABEL.kymaName}=${kymaName} in ${namespace}` };
    if (secrets.items.length > 1) throw new Error(`${secrets.items.length} kubeconfig Secrets carry label ${LABEL.kymaName}=${kymaName} in ${namespace}; expected one`);
    const [secret] = secrets.items as [Secret];
    const scope = scopeOfSecret(secret.metadata.name, secret.metadata.annotations);
    const version = `${secret.metadata.name}@${secret.metadata.resourceVersion ?? ''}`;
    const cached = this.cache.get(`${namespace}/${kymaName}`);
    if (cached?.version === version) return { client: cached.client, secret: secret.metadata.name, scope };
    const client = await clientFromSecret(secret, kymaName);
    this.cache.set(`${namespace}/${kymaName}`, { version, client });
    return { client, secret: secret.metadata.name, scope };
  }

  evict(namespace: string, kymaName: string): void {
    this.cache.delete(`${namespace}/${kymaName}`);
  }
}

async function clientFromSecret(secret: Secret, kymaName: string): Promise<KubeClient> {
  const encoded = secret.data?.config;
  if (!encoded) throw new Error(`kubeconfig Secret ${secret.metadata.name} of Kyma ${kymaName} has no key "config"`);
  const kc = new KubeConfig();
  try {
    kc.loadFromString(Buffer.from(encoded, 'base64').toString('utf8'));
    return await KubeClient.from(kc);
  } catch {
    throw new Error(`kubeconfig Secret ${secret.metadata.name} of Kyma ${kymaName} does not hold a usable kubeconfig`);
  }
}
