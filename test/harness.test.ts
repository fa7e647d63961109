import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('control-plane harness', () => {
  it('reaps etcd, kube-apiserver and controller-manager by PID when the process that started them is killed', async () => {
    const runRoot = await mkdtemp(join(tmpdir(), 'reap-test-'));
    const owner = spawn(process.execPath, [join(import.meta.dirname, 'fixtures/start-cluster-and-wait.ts'), runRoot], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: owner.stdout })[Symbol.asyncIterator]();
    const line = (await lines.next()).value as string | undefined;
    const { runDir, pids } = JSON.parse(line ?? '{}') as { runDir: string; pids: number[] };
    expect(pids).toHaveLength(3);
    expect(pids.every(isAlive)).toBe(true);

    owner.kill('SIGKILL');
    const deadline = Date.now() + 30_000;
    while ((pids.some(isAlive) || existsSync(runDir)) && Date.now() < deadline) await sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(existsSync(runDir)).toBe(false);
  });
});
