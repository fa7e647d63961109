import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { scrapeMetrics } from './apiserver-metrics.ts';

// A real HTTP server on loopback that keeps its first `silentFor` answers back, as a saturated API server does.
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function slowServer(silentFor: number): Promise<{ server: string; kubeConfig(): KubeConfig; asked(): number }> {
  let asked = 0;
  const listener = createServer((_req, res) => {
    if (++asked <= silentFor) return; // never answers: the scrape's timeout has to end it
    res.end('apiserver_request_total{code="200",verb="GET",resource="pods"} 1\n');
  });
  server = listener;
  await new Promise<void>((listening) => listener.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  const kubeConfig = () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    return kc;
  };
  return { server: url, kubeConfig, asked: () => asked };
}

describe('scrapeMetrics', () => {
  it('asks again when an API server stays silent past the timeout', async () => {
    const cluster = await slowServer(2);
    const text = await scrapeMetrics(cluster, { timeoutMs: 200, attempts: 3 });
    expect(text).toContain('apiserver_request_total');
    expect(cluster.asked()).toBe(3);
  });

  it('gives up with the timeout after its last attempt', async () => {
    const cluster = await slowServer(5);
    await expect(scrapeMetrics(cluster, { timeoutMs: 100, attempts: 2 })).rejects.toThrow(/metrics timed out/);
    expect(cluster.asked()).toBe(2);
  });
});
