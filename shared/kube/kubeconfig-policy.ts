// What a kubeconfig from other hands (a runtime's kubeconfig Secret, a file given to the CLI or the manifest library)
// may ask of the process that loads it. Loading one runs its exec credential plugin and its auth-provider's commands,
// and reads the local files it names (token-file, client-certificate, client-key, certificate-authority) — so whoever
// can write such a Secret could run commands with our credentials or send our own service-account token to their
// server. Those are refused before the kubeconfig is loaded, unless an exec command is allowed by name. A proxy
// (proxy-url) is refused too: the clients here do not speak to proxies, and connecting around one is never right.
// Messages name the field, never a value that could be a secret. Pure.
import { parse } from 'yaml';

/** The setting that allows exec credential plugins by command (comma-separated, exact `exec.command` values). */
export const EXEC_COMMANDS_SETTING = 'LIFECYCLE_KUBECONFIG_EXEC_COMMANDS';

export class KubeconfigRefusedError extends Error {
  override readonly name = 'KubeconfigRefusedError';
}

type Entry = Record<string, unknown>;
const FILE_FIELDS = { user: ['token-file', 'client-certificate', 'client-key'], cluster: ['certificate-authority'] } as const;

/** Why the kubeconfig `text` must not be loaded, or undefined (also for text that is no kubeconfig: loading it fails). */
export function kubeconfigRefusal(text: string, allowedExecCommands: readonly string[]): string | undefined {
  let config: unknown;
  try {
    config = parse(text, { maxAliasCount: 10 });
  } catch {
    return undefined;
  }
  if (!config || typeof config !== 'object') return undefined;
  const { users, clusters } = config as { users?: unknown; clusters?: unknown };
  for (const user of entries(users, 'user')) {
    const exec = user['exec'];
    if (exec !== undefined && exec !== null) {
      const command = typeof exec === 'object' ? (exec as Entry)['command'] : undefined;
      if (typeof command !== 'string' || !allowedExecCommands.includes(command)) {
        return `its user runs an exec credential plugin${typeof command === 'string' ? ` (command ${JSON.stringify(short(command))})` : ''}, which is refused; allow the command by name with ${EXEC_COMMANDS_SETTING}`;
      }
    }
    if (user['auth-provider'] !== undefined && user['auth-provider'] !== null) return 'its user has an auth-provider, which is refused (it can run commands and read local files); use a token or a client certificate';
    const file = FILE_FIELDS.user.find((field) => typeof user[field] === 'string' && user[field] !== '');
    if (file) return `its user names a local file (${file}), which is refused: a runtime's credentials must be inline (token, client-certificate-data, client-key-data)`;
  }
  for (const cluster of entries(clusters, 'cluster')) {
    if (typeof cluster['proxy-url'] === 'string' && cluster['proxy-url'] !== '') return 'its cluster names a proxy (proxy-url), which is not supported: refused rather than connecting around the proxy';
    const file = FILE_FIELDS.cluster.find((field) => typeof cluster[field] === 'string' && cluster[field] !== '');
    if (file) return `its cluster names a local file (${file}), which is refused: the CA must be inline (certificate-authority-data)`;
  }
  return undefined;
}

/** Throws KubeconfigRefusedError when `text` must not be loaded. */
export function assertKubeconfigAllowed(text: string, allowedExecCommands: readonly string[]): void {
  const refusal = kubeconfigRefusal(text, allowedExecCommands);
  if (refusal) throw new KubeconfigRefusedError(refusal);
}

/** The `user:` or `cluster:` bodies of a kubeconfig's `users` or `clusters` list (anything else is skipped). */
function entries(list: unknown, key: 'user' | 'cluster'): Entry[] {
  if (!Array.isArray(list)) return [];
  return list.map((item: unknown) => (item && typeof item === 'object' ? (item as Entry)[key] : undefined))
    .filter((body): body is Entry => Boolean(body) && typeof body === 'object');
}

const short = (command: string) => (command.length > 80 ? `${command.slice(0, 77)}...` : command);
