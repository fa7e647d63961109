// Exec credential plugins in kubeconfigs handed to the fleet CLI and to the manifest library's connectCluster
// (issue 21, item 4; ADR 31): refused by default, naming the field and the file, with nothing run; allowed only
// when the setting names the exact command, and then the plugin's credentials really reach the KCP.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { installCrds } from '../../local/controlplane/crds.ts';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { connectCluster } from '../../shared/render/index.ts';

const CLI = join(import.meta.dirname, '..', '..', 'tools', 'fleet', 'cli', 'main.ts');
let dir: string;
let plugin: string;
let marker: string;
let kubeconfigFile: string;
let kubeconfig: string;

interface CliRun { code: number; stdout: string; stderr: string }
const cli = (env: Record<string, string>, ...args: string[]) => new Promise<CliRun>((resolve) => {
  execFile(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: '', ...env } }, (error, stdout, stderr) => {
    resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
  });
});

type Config = { users: { name: string; user: Record<string, unknown> }[] };

beforeAll(async () => {
  // The CLI's status lists Kymas: the KCP must serve the kind (other files install it too; applying again is a no-op).
  await installCrds(loadKubeConfig(inject('controlPlane').kcp));
  dir = await mkdtemp(join(tmpdir(), 'exec-kubeconfig-'));
  marker = join(dir, 'plugin-ran');
  plugin = join(dir, 'credential-plugin.sh');
  // The plugin hands out the KCP admin's client certificate, so an allowed plugin yields a working client.
  const admin = parse(inject('controlPlane').kcp) as Config;
  const user = admin.users[0]?.user ?? {};
  const credential = {
    apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential',
    status: {
      clientCertificateData: Buffer.from(String(user['client-certificate-data']), 'base64').toString(),
      clientKeyData: Buffer.from(String(user['client-key-data']), 'base64').toString(),
    },
  };
  await writeFile(plugin, `#!/bin/sh\ntouch '${marker}'\ncat <<'EOF'\n${JSON.stringify(credential)}\nEOF\n`);
  await chmod(plugin, 0o700);
  const withExec = { ...admin, users: admin.users.map((u) => ({ name: u.name, user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' } } })) };
  kubeconfig = stringify(withExec);
  kubeconfigFile = join(dir, 'exec.kubeconfig');
  await writeFile(kubeconfigFile, kubeconfig, { mode: 0o600 });
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a kubeconfig with an exec credential plugin', () => {
  it('the fleet CLI refuses it by name, runs nothing, and quotes no credential', async () => {
    const run = await cli({ LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: '' }, 'status', '--kubeconfig', kubeconfigFile);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(kubeconfigFile);
    expect(run.stderr).toContain('exec credential plugin');
    expect(run.stderr).toContain('LIFECYCLE_KUBECONFIG_EXEC_COMMANDS');
    expect(run.stderr).not.toContain('BEGIN');
    expect(run.stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('connectCluster refuses it, runs nothing; another command allowed by name does not let it through', async () => {
    await expect(connectCluster(kubeconfig)).rejects.toThrow(/exec credential plugin/);
    await expect(connectCluster(kubeconfig, { execCommands: ['/usr/bin/true'] })).rejects.toThrow(/exec credential plugin/);
    expect(existsSync(marker)).toBe(false);
  });

  it('allowed by its exact command, the CLI and connectCluster run it and reach the KCP with its credentials', async () => {
    const run = await cli({ LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: plugin }, 'status', '--kubeconfig', kubeconfigFile);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Kyma/i);
    expect(existsSync(marker)).toBe(true);

    await rm(marker);
    const cluster = await connectCluster(kubeconfig, { execCommands: [plugin] });
    const namespace = await cluster.client.get<{ metadata: { name: string } }>({ apiVersion: 'v1', kind: 'Namespace', name: 'default' });
    expect(namespace?.metadata.name).toBe('default');
    expect(existsSync(marker)).toBe(true);
  });
});
