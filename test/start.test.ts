import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { KubeClient } from '../shared/kube/client.ts';

const run = promisify(execFile);

/** `npm start` until a line matches `until` (default: it says it is running): its output, and a way to stop it
 * (Ctrl-C) that answers the exit code. */
async function start(env: Record<string, string>, until = /running; Ctrl-C/): Promise<{ text: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../local/start.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KUBECONFIG: '', ...env } });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (until.test(line)) break;
  }
  return { text: lines.join('\n'), stop: () => { child.kill('SIGINT'); return exited; } };
}

describe('npm start (the embedded default)', () => {
  it('starts a control plane, prints how to reach it first, explains a Kyma not Ready in time, installs the sample module through the functions, and cleans up on Ctrl-C', async () => {
    const { text, stop } = await start({ LIFECYCLE_EMBEDDED_WHY_SECONDS: '1' }, /Kyma local-kyma: Ready/);
    // the hints come before Ready; after 1 s without Ready, `why` says what blocks, and following goes on
    expect(text.indexOf('kubectl:  export PATH=')).toBeGreaterThan(-1);
    expect(text.indexOf('kubectl:  export PATH=')).toBeLessThan(text.indexOf('Kyma local-kyma: Ready'));
    expect(text).toMatch(/Kyma local-kyma is not Ready after 1 s; what blocks it[^\n]*\n\[lifecycle\] {3}Kyma kcp-system\/local-kyma: /);
    expect(text.indexOf('running; Ctrl-C')).toBeLessThan(text.indexOf('Kyma local-kyma: Ready'));
    expect(text).toMatch(/Kyma local-kyma: Processing/);
    expect(text).toMatch(/Kyma local-kyma: Ready \(sample 1\.0\.0 Ready\)/);
    const runtimeKubeconfig = /runtime:\s+kubectl --kubeconfig (\S+)/.exec(text)?.[1] ?? '';
    const runtime = await KubeClient.from(loadKubeConfig(readFileSync(runtimeKubeconfig, 'utf8')));
    expect(await runtime.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: 'sample-manager' })).toBeDefined();
    // `./dev kubectl` talks to the running KCP without a path or a kubeconfig
    const { stdout } = await run(join(import.meta.dirname, '../dev'), ['kubectl', '-n', 'kcp-system', 'get', 'kymas', '-o', 'name'], { env: { ...process.env, KUBECONFIG: '' } });
    expect(stdout).toContain('kyma.operator.kyma-project.io/local-kyma');
    const runDir = /\((\/\S+run-\S+)\)/.exec(text)?.[1] ?? '';
    expect(existsSync(runDir)).toBe(true);
    expect(await stop()).toBe(0);
    expect(existsSync(runDir)).toBe(false);
  });

  it('in single-cluster mode (LIFECYCLE_IN_CLUSTER=true) installs the sample module into the KCP itself', async () => {
    const { text, stop } = await start({ LIFECYCLE_IN_CLUSTER: 'true', LIFECYCLE_EMBEDDED_RUNTIMES: '0' });
    expect(text).toMatch(/in single-cluster mode/);
    expect(text).toMatch(/Kyma local-kyma: Ready \(sample 1\.0\.0 Ready\)/);
    const kcpKubeconfig = /modules:\s+kubectl --kubeconfig (\S+)/.exec(text)?.[1] ?? '';
    const kcp = await KubeClient.from(loadKubeConfig(readFileSync(kcpKubeconfig, 'utf8')));
    expect(await kcp.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: 'sample-manager' })).toBeDefined();
    expect(text).toMatch(/KCP \+ 0 runtimes/);
    expect(await stop()).toBe(0);
  });
});
