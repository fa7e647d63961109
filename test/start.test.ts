import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { KubeClient } from '../shared/kube/client.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../shared/core/vocabulary.ts';
import { docBashBlock } from './e2e/readme.ts';
import { eventually } from './e2e/world.ts';

const run = promisify(execFile);

/** `npm start` until a line matches `until` (default: it says it is running): its output, and a way to stop it
 * (Ctrl-C) that answers the exit code. */
async function start(
  env: Record<string, string>,
  until = /running; Ctrl-C/,
): Promise<{ text: string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [join(import.meta.dirname, '../local/start.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, KUBECONFIG: '', ...env },
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    return exited;
  };
  running.add(stop);
  for await (const line of createInterface({ input: child.stdout })) {
    lines.push(line);
    if (until.test(line)) break;
  }
  child.stdout.resume(); // what it prints later must not fill the pipe
  return { text: lines.join('\n'), stop };
}

/** Control planes still running: a failed assertion must not leave one behind (or the run waiting on it). */
const running = new Set<() => Promise<number | null>>();
afterEach(async () => {
  await Promise.all([...running].map((stop) => stop()));
  running.clear();
});

describe('npm start (the embedded default)', () => {
  it('starts a control plane, prints how to reach it first, explains a Kyma not Ready in time, installs the sample module through the functions, and cleans up on Ctrl-C', async () => {
    const { text, stop } = await start({ LIFECYCLE_EMBEDDED_WHY_SECONDS: '0' }, /Kyma local-kyma: Ready/);
    // the hints come before Ready; not Ready at once (0 s), `why` says what blocks (following's own lines may come
    // in between), and following goes on
    expect(text.indexOf('kubectl:  export PATH=')).toBeGreaterThan(-1);
    expect(text.indexOf('kubectl:  export PATH=')).toBeLessThan(text.indexOf('Kyma local-kyma: Ready'));
    expect(text).toMatch(
      /Kyma local-kyma is not Ready after 0 s; what blocks it[^\n]*\n(?:[^\n]*\n)*?\[lifecycle\] {3}Kyma kcp-system\/local-kyma: /,
    );
    expect(text.indexOf('running; Ctrl-C')).toBeGreaterThan(text.indexOf('what blocks it'));
    expect(text.indexOf('Kyma local-kyma: Ready')).toBeGreaterThan(text.indexOf('what blocks it'));
    expect(text).toMatch(/Kyma local-kyma: Processing/);
    expect(text).toMatch(/Kyma local-kyma: Ready \(sample 1\.0\.0 Ready\)/);
    const runtimeKubeconfig = /runtime:\s+kubectl --kubeconfig (\S+)/.exec(text)?.[1] ?? '';
    const runtime = await KubeClient.from(loadKubeConfig(readFileSync(runtimeKubeconfig, 'utf8')));
    expect(
      await runtime.get({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'kyma-system',
        name: 'sample-manager',
      }),
    ).toBeDefined();
    // `./dev kubectl` talks to the running KCP without a path or a kubeconfig
    const { stdout } = await run(
      join(import.meta.dirname, '../dev'),
      ['kubectl', '-n', 'kcp-system', 'get', 'kymas', '-o', 'name'],
      { env: { ...process.env, KUBECONFIG: '' } },
    );
    expect(stdout).toContain('kyma.operator.kyma-project.io/local-kyma');
    // the hand-made CloudEvent of docs/contributing.md, sent to the printed resolve-template URL, is taken (2xx)
    const functionUrl = /resolve-template (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1] ?? '';
    const curl = (await docBashBlock('contributing.md', 'The embedded control plane')).replace(
      'http://127.0.0.1:PORT/',
      `${functionUrl}/`,
    );
    expect((await run('bash', ['-c', curl])).stdout).toMatch(/^HTTP\/1\.1 20[04]/);
    // the printed `try:` line for the runtime's Kyma, run as printed with the printed PATH: sample moves to 2.0.0
    const path = /kubectl:\s+export PATH=(\S+?):\$PATH/.exec(text)?.[1] ?? '';
    const tryLine = /try:\s+(kubectl --kubeconfig \S*runtime\S* .*)/.exec(text)?.[1] ?? '';
    expect(tryLine).toContain('patch kyma default');
    await run('bash', ['-c', tryLine], { env: { ...process.env, PATH: `${path}:${process.env['PATH'] ?? ''}` } });
    const kcp = await KubeClient.from(
      loadKubeConfig(readFileSync(/KCP:\s+kubectl --kubeconfig (\S+)/.exec(text)?.[1] ?? '', 'utf8')),
    );
    const upgraded = await eventually('module sample 2.0.0 Ready in Kyma local-kyma after the try: line', async () =>
      (
        await kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: 'local-kyma' })
      )?.status?.modules?.find((m) => m.name === 'sample' && m.version === '2.0.0' && m.state === 'Ready'),
    );
    expect(upgraded.channel).toBe('fast');
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
    expect(
      await kcp.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: 'sample-manager' }),
    ).toBeDefined();
    expect(text).toMatch(/KCP \+ 0 runtimes/);
    expect(await stop()).toBe(0);
  });
});
