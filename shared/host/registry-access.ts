import type { KubeClient } from '../kube/client.ts';
import { credentialsFromDockerConfig, type Credentials } from '../oci/registry.ts';
import type { Config } from './config.ts';

export interface RegistryAccess {
  host: string;
  plainHttp: boolean;
  credentials?: Credentials;
  allowedHosts: string[];
}

/** The module registry and its login (ADR 10): LIFECYCLE_OCI_REGISTRY and/or the `kubernetes.io/dockerconfigjson`
 * Secret LIFECYCLE_OCI_REGISTRY_CRED_SECRET names in the KCP namespace (no host configured: its single registry, as
 * upstream). Errors name the Secret, never its content. */
export async function registryAccess(kcp: KubeClient, config: Config): Promise<RegistryAccess> {
  const { base, plainHttp, credentialSecret } = config.registry;
  if (!credentialSecret) {
    if (!base)
      throw new Error(
        'LIFECYCLE_OCI_REGISTRY is not set: the module registry (host[:port], http:// for plain HTTP) is required',
      );
    return { host: base, plainHttp, allowedHosts: allowed(base, config) };
  }
  const where = `${config.kcpNamespace}/${credentialSecret}`;
  const secret = await kcp.get<{ metadata: { name: string }; type?: string; data?: Record<string, string> }>({
    apiVersion: 'v1',
    kind: 'Secret',
    namespace: config.kcpNamespace,
    name: credentialSecret,
  });
  const encoded = secret?.data?.['.dockerconfigjson'];
  if (!secret) throw new Error(`no private oci registry auth secret found: ${where}`);
  if (secret.type !== 'kubernetes.io/dockerconfigjson' || !encoded)
    throw new Error(
      `registry credential Secret ${where} is not of type kubernetes.io/dockerconfigjson with key .dockerconfigjson`,
    );
  const json = Buffer.from(encoded, 'base64').toString('utf8');
  const hosts = Object.keys((JSON.parse(json) as { auths?: Record<string, unknown> }).auths ?? {});
  if (!base && hosts.length !== 1)
    throw new Error(
      `registry credential Secret ${where} must name exactly one registry when LIFECYCLE_OCI_REGISTRY is not set (it names ${hosts.length})`,
    );
  const host = base || (hosts[0] ?? '').replace(/^https?:\/\//, '').replace(/\/$/, '');
  const credentials = credentialsFromDockerConfig(json, host);
  if (!credentials) throw new Error(`registry credential Secret ${where} has no entry for ${host}`);
  return {
    host,
    plainHttp: base ? plainHttp : (hosts[0] ?? '').startsWith('http://'),
    credentials,
    allowedHosts: allowed(host, config),
  };
}

/** The configured registry's host and LIFECYCLE_OCI_REGISTRY_ALLOWLIST: every host a descriptor may name. */
const allowed = (base: string, config: Config) => [
  ...new Set([(base.split('/')[0] ?? base).toLowerCase(), ...config.registry.allowlist]),
];
