// Closing a function host while a call still runs whose sender hung up: the close waits for the call, and keeps the
// process alive meanwhile — also when all the call waits on is an unreferenced timer (a batch settling). Before,
// the process could end mid-close (exit code 13, "unsettled top-level await"), cutting the call off.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const HOST = new URL('../shared/host/host.ts', import.meta.url).pathname;
const LOGGER = new URL('../shared/host/logger.ts', import.meta.url).pathname;

const script = `
import { startFunctionHost } from ${JSON.stringify(HOST)};
import { createLogger } from ${JSON.stringify(LOGGER)};
const fn = { name: 'slow', accepts: ['test.slow'], keyless: true, async handle() {
  await new Promise((resolve) => setTimeout(resolve, 500).unref());
  console.log('call finished');
  return undefined;
} };
const host = await startFunctionHost(fn, createLogger('t', 'silent'));
const sender = new AbortController();
fetch(host.url, { method: 'POST', signal: sender.signal, headers: { 'ce-specversion': '1.0', 'ce-id': '1', 'ce-source': 't', 'ce-type': 'test.slow' }, body: '' }).catch(() => undefined);
await new Promise((resolve) => setTimeout(resolve, 100));
sender.abort();
await host.close();
console.log('closed');
`;

function run(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('function host close', () => {
  it('waits for a running call whose sender hung up, the process staying alive until it finished', async () => {
    const { code, out } = await run();
    expect(out.trim().split('\n'), out).toEqual(['call finished', 'closed']);
    expect(code).toBe(0);
  });
});
