/** Configuration, read from the environment in this one place, validated and frozen. */
export interface Config {
  /** A kubeconfig file for an existing KCP; absent = start the embedded local control plane. */
  readonly kubeconfigPath: string | undefined;
  /** Runtime clusters the embedded control plane starts. */
  readonly embeddedRuntimes: number;
  readonly logLevel: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const embeddedRuntimes = Number(env.LIFECYCLE_EMBEDDED_RUNTIMES ?? '1');
  if (!Number.isInteger(embeddedRuntimes) || embeddedRuntimes < 0 || embeddedRuntimes > 20) {
    throw new Error(`LIFECYCLE_EMBEDDED_RUNTIMES must be an integer from 0 to 20, got "${env.LIFECYCLE_EMBEDDED_RUNTIMES}"`);
  }
  return Object.freeze({
    kubeconfigPath: env.KUBECONFIG || undefined,
    embeddedRuntimes,
    logLevel: env.LOG_LEVEL ?? 'info',
  });
}
