import { parse } from 'yaml';
import { LABEL } from '../core/vocabulary.ts';
import type { KubeClient } from './client.ts';
import type { KubeObject } from './types.ts';

interface Secret {
  metadata: { name: string; resourceVersion?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}
interface Named<T> {
  name?: string;
  [key: string]: T | string | undefined;
}
interface KubeconfigShape {
  'current-context'?: string;
  contexts?: Named<{ cluster?: string }>[];
  clusters?: Named<{ server?: string }>[];
}

/** PURE. The API server a kubeconfig's current context talks to (`https://host:port`), or undefined when the text is
 * not a kubeconfig. Only the server URL is read (no credentials, nothing executed); it is not a secret. */
export function serverOfKubeconfig(text: string): string | undefined {
  let config: KubeconfigShape;
  try {
    config = parse(text, { maxAliasCount: 10 }) as KubeconfigShape;
  } catch {
    return undefined;
  }
  if (!config || typeof config !== 'object') return undefined;
  const entries = <T>(list: Named<T>[] | undefined) =>
    Array.isArray(list) ? list.filter((e) => e && typeof e === 'object') : [];
  const context = entries(config.contexts).find((c) => c.name === config['current-context'])?.['context'];
  const clusterName = context && typeof context === 'object' ? context.cluster : undefined;
  const clusters = entries(config.clusters);
  const cluster = (clusters.find((c) => c.name === clusterName) ?? clusters[0])?.['cluster'];
  const server = cluster && typeof cluster === 'object' ? cluster.server : undefined;
  return typeof server === 'string' && server ? server : undefined;
}

const memo = new Map<string, { version: string; server: string }>();
const MEMO_LIMIT = 100_000;

/** Kyma name → the runtime API server its kubeconfig Secret points at (`kyma:<name>` when unreadable): "one runtime"
 * of the per-runtime release budget (ADR 30). Each Secret is parsed once per resourceVersion; the Secrets come from
 * the watch cache when the caller reads kubeconfigs from it. */
export async function runtimeServersOf(kcp: KubeClient, namespace: string): Promise<Map<string, string>> {
  const pairs = await kcp.scan<Secret & KubeObject, [string, string] | undefined>(
    'v1',
    'Secret',
    { namespace, labelSelector: LABEL.kymaName },
    (secret) => {
      const kyma = secret.metadata.labels?.[LABEL.kymaName];
      if (!kyma) return undefined;
      const id = `${namespace}/${secret.metadata.name}`;
      const version = secret.metadata.resourceVersion ?? '';
      let entry = memo.get(id);
      if (entry?.version !== version) {
        if (memo.size >= MEMO_LIMIT) memo.clear();
        entry = {
          version,
          server:
            serverOfKubeconfig(Buffer.from(secret.data?.config ?? '', 'base64').toString('utf8')) ?? `kyma:${kyma}`,
        };
        memo.set(id, entry);
      }
      return [kyma, entry.server];
    },
  );
  return new Map(pairs.filter((p) => p !== undefined));
}
