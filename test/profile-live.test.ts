// bench/inspector-profile.ts against a real Node process: its inspector opened by SIGUSR1, sampled over the DevTools
// protocol, and closed again (I/O and a child process, so not among the unit tests).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { profileProcess } from '../bench/inspector-profile.ts';
import { summarizeProfile } from '../bench/profile-summary.ts';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** A process that spends its time in one named function until it is killed. It runs interpreted only (`--jitless`):
 * an optimising compiler may inline it into its timer's caller, and its samples would then carry the caller's name. */
const BUSY = `setInterval(function spinForTheProfile() {
  const end = Date.now() + 40; let x = 0;
  while (Date.now() < end) for (let i = 0; i < 1e4; i++) x += Math.sqrt(i);
  return x;
}, 50);
console.log('ready');`;

describe.runIf(process.platform === 'linux')('a running process profiled without a restart', () => {
  it('finds where it spends its time, then closes the inspector it opened', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [`--inspect-port=127.0.0.1:${port}`, '--jitless', '-e', BUSY], {
      stdio: 'pipe',
    });
    // Killed however the test ends (a timeout included): a busy child left behind takes a core from what runs next.
    onTestFinished(() => void child.kill());
    await once(child.stdout, 'data');
    const profile = await profileProcess({ pid: child.pid ?? 0, seconds: 1, intervalUs: 500, port });
    const summary = summarizeProfile(profile, 5);
    expect(summary.samples).toBeGreaterThan(100);
    expect(summary.functions[0]?.name).toMatch(/^spinForTheProfile /);
    expect(summary.functions[0]?.share).toBeGreaterThan(0.2);
    const after = await fetch(`http://127.0.0.1:${port}/json/list`).then(
      () => 'listening',
      () => 'closed',
    );
    expect(after).toBe('closed');
  }, 30_000);

  it('says so when the process opens no inspector', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['-e', "process.on('SIGUSR1', () => {}); setInterval(() => {}, 1000)"]);
    onTestFinished(() => void child.kill());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(profileProcess({ pid: child.pid ?? 0, seconds: 1, intervalUs: 1000, port })).rejects.toThrow(
      `no inspector answered on 127.0.0.1:${port} within 10 s`,
    );
  }, 20_000);
});
