// Kubeconfigs whose users run an exec credential plugin, for exec-kubeconfig.test.ts: a plugin script that hands out
// a real user's credentials, and a kubeconfig turned to run it.
import { chmod, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

type Config = { users: { name: string; user: Record<string, unknown> }[] };

/** An ExecCredential plugin script (touching `ran`) that hands out the first user's credentials of `kubeconfig`. */
export async function credentialPlugin(path: string, ran: string, kubeconfig: string): Promise<void> {
  const user = (parse(kubeconfig) as Config).users[0]?.user ?? {};
  const pem = (field: string) => Buffer.from(String(user[field]), 'base64').toString();
  const status =
    typeof user['token'] === 'string'
      ? { token: user['token'] }
      : { clientCertificateData: pem('client-certificate-data'), clientKeyData: pem('client-key-data') };
  await writeFile(
    path,
    `#!/bin/sh\ntouch '${ran}'\ncat <<'EOF'\n${JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status })}\nEOF\n`,
  );
  await chmod(path, 0o700);
}

/** `kubeconfig` with every user replaced by the exec plugin `exec`. */
export const withExec = (kubeconfig: string, exec: Record<string, unknown>) => {
  const config = parse(kubeconfig) as Config;
  return stringify({
    ...config,
    users: config.users.map((u) => ({
      name: u.name,
      user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never', ...exec } },
    })),
  });
};
