import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

export interface KubeconfigInput {
  cluster: string;
  server: string;
  caPem: string;
  user: string;
  certPem?: string;
  keyPem?: string;
  token?: string;
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A self-contained kubeconfig (credentials embedded) with one context named after the cluster. */
export function renderKubeconfig(input: KubeconfigInput): string {
  const user: Record<string, string> = {};
  if (input.certPem) user['client-certificate-data'] = b64(input.certPem);
  if (input.keyPem) user['client-key-data'] = b64(input.keyPem);
  if (input.token) user.token = input.token;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: input.cluster, cluster: { server: input.server, 'certificate-authority-data': b64(input.caPem) } },
    ],
    users: [{ name: input.user, user }],
    contexts: [{ name: input.cluster, context: { cluster: input.cluster, user: input.user } }],
    'current-context': input.cluster,
  });
}

export function loadKubeConfig(kubeconfigYaml: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml);
  return kc;
}
