import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../shared/controlplane/index.ts';
import { KubeClient } from '../shared/k8s/client.ts';

describe('npm start (the embedded default)', () => {
  it('starts a control plane, installs the sample module through the functions, prints progress until Ready, and cleans up on Ctrl-C', async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '../shared/start.ts')], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KUBECONFIG: '' } });
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for await (const line of createInterface({ input: child.stdout })) {
      lines.push(line);
      if (line.includes('running; Ctrl-C')) break;
    }
    const text = lines.join('\n');
    expect(text).toMatch(/Kyma local-kyma: Processing/);
    expect(text).toMatch(/Kyma local-kyma: Ready \(sample 1\.0\.0 Ready\)/);
    const runtimeKubeconfig = /runtime:\s+kubectl --kubeconfig (\S+)/.exec(text)?.[1] ?? '';
    const runtime = await KubeClient.from(loadKubeConfig(readFileSync(runtimeKubeconfig, 'utf8')));
    expect(await runtime.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: 'sample-manager' })).toBeDefined();
    const runDir = /\((\/\S+run-\S+)\)/.exec(text)?.[1] ?? '';
    expect(existsSync(runDir)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(runDir)).toBe(false);
  });
});
