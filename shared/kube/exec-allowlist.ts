// Which exec credential plugins a kubeconfig from other hands may run (ADR 31 and its addendum, issue 34): the exact
// command with its exact arguments, and the names of the environment variables its `exec.env` may set. Parsed from
// LIFECYCLE_KUBECONFIG_EXEC_COMMANDS and LIFECYCLE_KUBECONFIG_EXEC_ENV in shared/host/config.ts. Pure.

/** One allowed plugin: `command` run with exactly `args` (none = no arguments at all). */
export interface ExecPlugin {
  readonly command: string;
  readonly args: readonly string[];
}

export interface ExecAllowlist {
  readonly plugins: readonly ExecPlugin[];
  /** Names of the environment variables a kubeconfig's `exec.env` may set (the values still come from it). */
  readonly env: readonly string[];
}

/** What callers may pass: the parsed form, or entries as written in LIFECYCLE_KUBECONFIG_EXEC_COMMANDS (no env names). */
export type ExecAllowed = ExecAllowlist | readonly string[];

export const NO_EXEC: ExecAllowlist = Object.freeze({ plugins: Object.freeze([]), env: Object.freeze([]) });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` is an environment variable name (letters, digits and `_`, not starting with a digit). */
export const isEnvName = (name: string): boolean => ENV_NAME.test(name);

/** One entry: `command` optionally followed by its exact arguments, separated by single spaces. */
export function parseExecEntry(entry: string): ExecPlugin {
  const [command = '', ...args] = entry.trim().split(' ');
  if (command === '') throw new Error('an entry has no command');
  if (args.includes(''))
    throw new Error(`the entry for command ${JSON.stringify(command)} must separate its arguments by single spaces`);
  return Object.freeze({ command, args: Object.freeze(args) });
}

/** The parsed allowlist: `commands` are entries as parseExecEntry reads them (empty ones skipped), `env` names. */
export function execAllowlist(commands: readonly string[], env: readonly string[] = []): ExecAllowlist {
  const bad = env.find((name) => !isEnvName(name));
  if (bad !== undefined) throw new Error(`${JSON.stringify(bad)} is not an environment variable name`);
  return Object.freeze({
    plugins: Object.freeze(commands.filter((entry) => entry.trim() !== '').map(parseExecEntry)),
    env: Object.freeze([...env]),
  });
}

/** The parsed form of what a caller passed. */
export const asExecAllowlist = (allowed: ExecAllowed): ExecAllowlist =>
  isParsed(allowed) ? allowed : execAllowlist(allowed);

const isParsed = (allowed: ExecAllowed): allowed is ExecAllowlist => !Array.isArray(allowed);
