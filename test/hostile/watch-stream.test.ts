// A runtime's API server is untrusted input: a WATCH that streams a line that is not JSON, an event its reader cannot
// take, or a line that never ends, ends that watch with an error that quotes nothing of the line; an answer that never
// ends or is not JSON fails its request the same way; the process goes on (no uncaught exception from a stream's
// handlers, no memory filled), over HTTP/2 (runtimes, ADR 52) and HTTP/1.1 alike.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterPki } from '../../local/controlplane/pki.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import type { ClusterConfig } from '../../shared/kube/kubeconfig.ts';

const SECRET_LINE = 'token=hostile-secret-value {';
const GOOD = JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'first' } } });

let dir: string;
let server: Http2SecureServer;
let runtime: ClusterConfig;
/** WATCH streams the server has seen closed by the client. */
let closed = 0;
/** What the hostile server streams after one good event: one line per WATCH, chosen by the `lines` query. */
const streams: Record<string, string> = { garbage: `${SECRET_LINE}\n`, shapeless: '{"type":"ADDED","object":7}\n' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hostile-watch-'));
  const pki = await createClusterPki(dir, 'hostile');
  const [cert, key, ca] = await Promise.all([pki.servingCert, pki.servingKey, pki.caCert].map((f) => readFile(f)));
  server = createSecureServer({ cert, key, allowHTTP1: true }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    const lines = url.searchParams.get('lines') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.on('close', () => closed++);
    if (url.pathname === '/not-json') return void res.end(SECRET_LINE);
    // An answer, or a WATCH's second line, that never ends: only the client can stop it.
    if (url.pathname === '/endless') return flood(res, '[');
    res.write(`${GOOD}\n`);
    if (lines === 'endless') return flood(res, '{"type":"ADDED",');
    // The rest comes in a later chunk, split inside the line, and the stream stays open: only the client can end it.
    const rest = streams[lines] ?? '';
    setTimeout(() => res.write(rest.slice(0, 5)), 50);
    setTimeout(() => res.write(rest.slice(5)), 100);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  runtime = {
    getCurrentCluster: () => ({ server: url }),
    getCurrentContext: () => 'hostile',
    applyToHTTPSOptions: async (options) => void (options.ca = ca),
  };
});

/** Writes `start` and then megabytes of spaces for as long as the client reads them. */
function flood(
  res: { write(chunk: string): boolean; on(event: 'drain', f: () => void): unknown; destroyed: boolean },
  start: string,
) {
  const chunk = ' '.repeat(2 ** 20);
  const more = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.write(start);
  res.on('drain', more);
  more();
}

afterAll(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Watches `lines` with a reader that throws on an object that is not one: what it saw and how the watch ended. */
async function watchOf(http2: boolean, lines: string): Promise<{ names: string[]; ended: unknown }> {
  const client = await KubeClient.from(runtime, { http2 });
  const names: string[] = [];
  const read = (event: unknown) => {
    const { object } = event as { object: { metadata: { name: string } } };
    names.push(object.metadata.name);
  };
  const ended = await client
    .watch(`/api/v1/configmaps?watch=1&lines=${lines}`, read, new AbortController().signal, 10_000)
    .then(
      () => 'resolved',
      (error: unknown) => error,
    );
  return { names, ended };
}

describe('a hostile runtime API server on a WATCH', () => {
  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: a line that is not JSON ends the watch with an error that quotes none of it', async (_, http2) => {
    const before = closed;
    const { names, ended } = await watchOf(http2, 'garbage');
    expect(names).toEqual(['first']);
    expect(ended).toBeInstanceOf(Error);
    expect((ended as Error).message).toBe('WATCH /api/v1/configmaps: a line that is not JSON');
    expect(JSON.stringify(ended) + String((ended as Error).stack)).not.toContain('hostile-secret-value');
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(before + 1);
  });

  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: an event its reader throws on ends the watch with an error, not the process', async (_, http2) => {
    const { names, ended } = await watchOf(http2, 'shapeless');
    expect(names).toEqual(['first']);
    expect((ended as Error).message).toBe('WATCH /api/v1/configmaps: an event it could not take');
  });

  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: a line that never ends ends the watch at 16 MiB, not the memory', async (_, http2) => {
    const before = closed;
    const { names, ended } = await watchOf(http2, 'endless');
    expect(names).toEqual(['first']);
    expect((ended as Error).message).toBe('WATCH /api/v1/configmaps: a line over 16 MiB');
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(before + 1);
  });
});

describe('a hostile runtime API server on a request', () => {
  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: an answer that never ends fails at 128 MiB, the process going on', async (_, http2) => {
    const before = closed;
    const client = await KubeClient.from(runtime, { http2 });
    await expect(client.request('GET', '/endless')).rejects.toThrow(/^GET \/endless: an answer over 128 MiB$/);
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(before + 1);
  });

  it.each([
    ['HTTP/2', true],
    ['HTTP/1.1', false],
  ])('%s: an answer that is not JSON fails without quoting it', async (_, http2) => {
    const client = await KubeClient.from(runtime, { http2 });
    const failed = await client.request('GET', '/not-json').catch((error: unknown) => error as Error);
    expect((failed as Error).message).toBe('GET /not-json: the answer is not JSON');
    expect(JSON.stringify(failed) + String((failed as Error).stack)).not.toContain('hostile-secret-value');
  });
});
