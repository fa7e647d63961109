// Runtime credentials that go wrong in ways a kubeconfig Secret can: a ServiceAccount token minted with the
// cluster's own signing key (so it is genuine) but already expired, and a kubeconfig trusting another cluster's CA.
import { createPrivateKey, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { renderKubeconfig, type Cluster } from '../../local/controlplane/index.ts';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A bound ServiceAccount token signed with the cluster's service-account key, valid from an hour ago until `expiresInSeconds` from now (negative: expired). */
export async function serviceAccountToken(
  cluster: Cluster,
  sa: { namespace: string; name: string; uid: string },
  expiresInSeconds: number,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: cluster.server,
    aud: [cluster.server],
    sub: `system:serviceaccount:${sa.namespace}:${sa.name}`,
    iat: now - 3600,
    nbf: now - 3600,
    exp: now + expiresInSeconds,
    'kubernetes.io': { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } },
  };
  const unsigned = `${b64url(JSON.stringify({ alg: 'ES256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  const key = createPrivateKey(await readFile(cluster.pki.serviceAccountKey, 'utf8'));
  return `${unsigned}.${b64url(sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

/** A kubeconfig for the cluster acting with `token`. */
export async function tokenKubeconfig(cluster: Cluster, token: string): Promise<string> {
  return renderKubeconfig({
    cluster: cluster.name,
    server: cluster.server,
    caPem: await readFile(cluster.pki.caCert, 'utf8'),
    user: 'token-user',
    token,
  });
}

/** The cluster's admin kubeconfig, but trusting the CA of `otherKubeconfig` instead of its own. */
export function withForeignCa(kubeconfig: string, otherKubeconfig: string): string {
  type Config = { clusters: { cluster: Record<string, string> }[] };
  const config = parse(kubeconfig) as Config;
  const foreign = (parse(otherKubeconfig) as Config).clusters[0]?.cluster['certificate-authority-data'];
  for (const c of config.clusters) c.cluster['certificate-authority-data'] = foreign ?? '';
  return stringify(config);
}
