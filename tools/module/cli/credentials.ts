import { parse } from 'yaml';
import { credentialsFromDockerConfig, type Credentials } from '../../../shared/oci/registry.ts';
import { readText } from './inputs.ts';
import { InputError } from '../../../shared/host/input-rules.ts';

/** MODULE_REGISTRY_USERNAME / MODULE_REGISTRY_PASSWORD as read by shared/host/config.ts. */
export interface RegistryLogin {
  username: string | undefined;
  password: string | undefined;
}

/**
 * How to log in to the registry: `--credentials-file` (a docker `config.json`, a `.dockerconfigjson`, or a
 * `kubernetes.io/dockerconfigjson` Secret manifest) wins over the environment; neither means anonymous.
 * Messages name the file, the variable or the registry, never a credential.
 */
export async function registryCredentials(
  file: string | undefined,
  login: RegistryLogin,
  host: string,
): Promise<Credentials | undefined> {
  if (file) return fromDockerConfig(dockerConfigJson(await readText('--credentials-file', file), file), file, host);
  if (login.username && login.password) return { username: login.username, password: login.password };
  if (login.username || login.password) {
    throw new InputError(
      'MODULE_REGISTRY_USERNAME and MODULE_REGISTRY_PASSWORD must be set together (or use --credentials-file)',
    );
  }
  return undefined;
}

/** PURE. The docker config JSON of the file's text: the text itself, or the `.dockerconfigjson` of a Secret. */
export function dockerConfigJson(text: string, file: string): string {
  let document: unknown;
  try {
    document = parse(text);
  } catch {
    throw new InputError(`--credentials-file "${file}": neither JSON nor YAML`);
  }
  const secret = document as {
    kind?: unknown;
    data?: Record<string, unknown>;
    stringData?: Record<string, unknown>;
  } | null;
  if (secret?.kind !== 'Secret') return text;
  const encoded = secret.data?.['.dockerconfigjson'];
  const plain = secret.stringData?.['.dockerconfigjson'];
  if (typeof encoded === 'string') return Buffer.from(encoded, 'base64').toString('utf8');
  if (typeof plain === 'string') return plain;
  throw new InputError(`--credentials-file "${file}": the Secret has no .dockerconfigjson key`);
}

function fromDockerConfig(json: string, file: string, host: string): Credentials {
  let credentials: Credentials | undefined;
  try {
    credentials = credentialsFromDockerConfig(json, host);
  } catch (error) {
    throw new InputError(`--credentials-file "${file}": ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!credentials) throw new InputError(`--credentials-file "${file}": has no entry for registry ${host}`);
  return credentials;
}
