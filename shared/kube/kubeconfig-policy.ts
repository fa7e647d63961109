// What a kubeconfig from other hands (a runtime's kubeconfig Secret, a file given to the CLI or the library) may ask
// (ADR 31): exec unless allowed by command, exact arguments and env names, auth-provider, local files and proxy-url are
// refused before loading. Messages name the field (and refused env names), never a value that could be a secret. Pure.
import { parse } from 'yaml';
import { asExecAllowlist, isEnvName, type ExecAllowed, type ExecAllowlist } from './exec-allowlist.ts';

/** The setting that allows exec credential plugins (comma-separated entries: the command, optionally followed by its
 * exact arguments separated by single spaces). */
export const EXEC_COMMANDS_SETTING = 'LIFECYCLE_KUBECONFIG_EXEC_COMMANDS';
/** The setting that allows names of environment variables an allowed plugin's `exec.env` may set (comma-separated). */
export const EXEC_ENV_SETTING = 'LIFECYCLE_KUBECONFIG_EXEC_ENV';

export class KubeconfigRefusedError extends Error {
  override readonly name = 'KubeconfigRefusedError';
}

type Entry = Record<string, unknown>;
const FILE_FIELDS = {
  user: ['token-file', 'client-certificate', 'client-key'],
  cluster: ['certificate-authority'],
} as const;

/** Why the kubeconfig (its YAML `text`, or the document parsed from it) must not be loaded, or undefined (also for
 * text that is no kubeconfig: loading it fails). */
export function kubeconfigRefusal(text: string | object, allowedExec: ExecAllowed): string | undefined {
  const allowed = asExecAllowlist(allowedExec);
  let config: object;
  try {
    config = typeof text === 'string' ? parseKubeconfig(text) : text;
  } catch {
    return undefined;
  }
  const { users, clusters } = config as { users?: unknown; clusters?: unknown };
  for (const user of entries(users, 'user')) {
    const exec = user['exec'];
    if (exec !== undefined && exec !== null) {
      const refusal = execRefusal(exec, allowed);
      if (refusal) return refusal;
    }
    if (user['auth-provider'] !== undefined && user['auth-provider'] !== null)
      return 'its user has an auth-provider, which is refused (it can run commands and read local files); use a token or a client certificate';
    const file = FILE_FIELDS.user.find((field) => typeof user[field] === 'string' && user[field] !== '');
    if (file)
      return `its user names a local file (${file}), which is refused: a runtime's credentials must be inline (token, client-certificate-data, client-key-data)`;
  }
  for (const cluster of entries(clusters, 'cluster')) {
    if (typeof cluster['proxy-url'] === 'string' && cluster['proxy-url'] !== '')
      return 'its cluster names a proxy (proxy-url), which is not supported: refused rather than connecting around the proxy';
    const file = FILE_FIELDS.cluster.find((field) => typeof cluster[field] === 'string' && cluster[field] !== '');
    if (file)
      return `its cluster names a local file (${file}), which is refused: the CA must be inline (certificate-authority-data)`;
  }
  return undefined;
}

/** The document of a kubeconfig's YAML text; errors never quote it. */
export function parseKubeconfig(text: string): object {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 10 });
  } catch {
    throw new Error('the kubeconfig is not YAML');
  }
  if (!doc || typeof doc !== 'object') throw new Error('the kubeconfig is empty');
  return doc;
}

/** Throws KubeconfigRefusedError when `text` must not be loaded. */
export function assertKubeconfigAllowed(text: string | object, allowedExec: ExecAllowed): void {
  const refusal = kubeconfigRefusal(text, allowedExec);
  if (refusal) throw new KubeconfigRefusedError(refusal);
}

/** Why a user's `exec` must not run (ADR 31): its command is not allowed, its `args` (absent = none) are not exactly
 * those of an allowed entry for that command, or its `env` sets a name not allowed. Anything but a list of strings, or
 * of `{name, value}` with string names, is refused too (client-node would spawn with an object as its options). */
function execRefusal(exec: unknown, allowed: ExecAllowlist): string | undefined {
  const command = exec && typeof exec === 'object' && !Array.isArray(exec) ? (exec as Entry)['command'] : undefined;
  if (typeof command !== 'string' || !allowed.plugins.some((p) => p.command === command)) {
    return `its user runs an exec credential plugin${typeof command === 'string' ? ` (command ${JSON.stringify(short(command))})` : ''}, which is refused; allow the command by name with ${EXEC_COMMANDS_SETTING}`;
  }
  const plugin = `its user's exec credential plugin (command ${JSON.stringify(short(command))})`;
  const { args = [], env } = exec as Entry;
  const given = args === null ? [] : args;
  if (
    !Array.isArray(given) ||
    !given.every((a): a is string => typeof a === 'string') ||
    !allowed.plugins.some(
      (p) => p.command === command && p.args.length === given.length && p.args.every((a, i) => a === given[i]),
    )
  ) {
    return `${plugin} passes arguments that are not allowed; allow command and arguments exactly with ${EXEC_COMMANDS_SETTING}`;
  }
  if (env === undefined || env === null) return undefined;
  const items: unknown[] = Array.isArray(env) ? env : [env];
  const names = items.map((item) =>
    item && typeof item === 'object' && !Array.isArray(item) ? (item as Entry)['name'] : undefined,
  );
  const refused = names.filter((name) => typeof name !== 'string' || !allowed.env.includes(name));
  if (refused.length === 0 && Array.isArray(env)) return undefined;
  // Names are shown (needed to allow them, and not credentials); only proper names, a few, shortened; never a value.
  const shown = [...new Set(refused.filter((n): n is string => typeof n === 'string' && isEnvName(n)).map(short))];
  const listed = shown.length === 0 ? '' : ` (${shown.slice(0, 5).join(', ')}${shown.length > 5 ? ', …' : ''})`;
  return `${plugin} sets environment variables${listed} that are not allowed; allow names with ${EXEC_ENV_SETTING}`;
}

/** The `user:` or `cluster:` bodies of a kubeconfig's `users` or `clusters` list (anything else is skipped). */
function entries(list: unknown, key: 'user' | 'cluster'): Entry[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((item: unknown) => (item && typeof item === 'object' ? (item as Entry)[key] : undefined))
    .filter((body): body is Entry => Boolean(body) && typeof body === 'object');
}

const short = (command: string) => (command.length > 80 ? `${command.slice(0, 77)}...` : command);
