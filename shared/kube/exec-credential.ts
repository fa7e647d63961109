// An exec credential plugin (client.authentication.k8s.io ExecCredential), run only for a kubeconfig the caller trusts
// or its policy allowed (ADR 31, ADR 42); its output names a token or a client certificate. Errors say the command and
// the exit code, never its output (which carries the credential).
import { execFile } from 'node:child_process';
import { pluginEnvironment } from '../host/config.ts';

export interface ExecConfig {
  command?: unknown;
  args?: unknown;
  env?: unknown;
}
export interface ExecCredential {
  token?: string | undefined;
  cert?: Buffer | undefined;
  key?: Buffer | undefined;
}

const TIMEOUT_MS = 60_000;

export function runExecCredential(exec: ExecConfig): Promise<ExecCredential> {
  const command = typeof exec.command === 'string' ? exec.command : '';
  if (!command) return Promise.reject(new Error("the kubeconfig's exec credential plugin has no command"));
  const args = Array.isArray(exec.args) ? exec.args.map(String) : [];
  const env = pluginEnvironment();
  for (const item of Array.isArray(exec.env) ? (exec.env as unknown[]) : []) {
    const { name, value } = (item ?? {}) as { name?: unknown; value?: unknown };
    if (typeof name === 'string') env[name] = String(value ?? '');
  }
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, timeout: TIMEOUT_MS, maxBuffer: 1 << 20, encoding: 'utf8' }, (error, stdout) => {
      if (error)
        return reject(
          new Error(
            `the exec credential plugin ${JSON.stringify(command)} failed (${error.code ?? error.signal ?? 'no exit code'})`,
          ),
        );
      try {
        resolve(credentialOf(JSON.parse(stdout)));
      } catch {
        reject(
          new Error(
            `the exec credential plugin ${JSON.stringify(command)} printed no ExecCredential with a token or a client certificate`,
          ),
        );
      }
    });
  });
}

function credentialOf(printed: unknown): ExecCredential {
  const status = (printed as { status?: Record<string, unknown> } | null)?.status ?? {};
  const text = (field: string) =>
    typeof status[field] === 'string' && status[field] ? (status[field] as string) : undefined;
  const credential = {
    token: text('token'),
    cert: bytesOf(text('clientCertificateData')),
    key: bytesOf(text('clientKeyData')),
  };
  if (!credential.token && !(credential.cert && credential.key)) throw new Error('no credential');
  return credential;
}

const bytesOf = (pem: string | undefined) => (pem ? Buffer.from(pem, 'utf8') : undefined);
