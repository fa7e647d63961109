// A runtime's client on the real runtime API server (ADR 52): its requests and WATCH streams share one HTTP/2 session;
// a broken connection fails what was on it as a connection error and the next call opens a new session, as does one
// that stops answering (a PING after a timeout); a server that only speaks HTTP/1.1 (a TLS terminator in front of the
// API server) is reached over HTTP/1.1.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, createServer as tlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { createClusterPki } from '../local/controlplane/pki.ts';
import { isConnectionError } from '../shared/host/errors.ts';
import { KubeClient } from '../shared/kube/client.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { passThrough } from './pass-through.ts';

type Config = { clusters: { cluster: Record<string, string> }[] };
const runtimeKubeconfig = () => inject('controlPlane').runtimes[0] as string;
const serverOf = (kubeconfig: string) => new URL((parse(kubeconfig) as Config).clusters[0]?.cluster.server ?? '');

/** The runtime kubeconfig pointed at `port` on this host, trusting `caPem` when given. */
function via(port: number, caPem?: string): string {
  const config = parse(runtimeKubeconfig()) as Config;
  for (const { cluster } of config.clusters) {
    cluster.server = `https://127.0.0.1:${port}`;
    if (caPem) cluster['certificate-authority-data'] = Buffer.from(caPem).toString('base64');
  }
  return stringify(config);
}

const configMap = (namespace: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data: { at: name },
});
const connections = () =>
  requestTally()
    .filter((row) => row.verb === 'connect')
    .reduce((n, row) => n + row.count, 0);
const namespace = `h2-${Date.now().toString(36)}`;
let admin: KubeClient;
let pkiDir: string;

beforeAll(async () => {
  admin = await KubeClient.from(loadKubeConfig(runtimeKubeconfig()));
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  pkiDir = await mkdtemp(join(tmpdir(), 'h2-pki-'));
});

afterAll(async () => {
  countRequests(false);
  await admin?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
  await rm(pkiDir, { recursive: true, force: true });
});

/** Watches the namespace's ConfigMaps from now on, collecting the names of those added. */
function watchAdded(client: KubeClient, signal: AbortSignal): { added: string[]; ended: Promise<unknown> } {
  const added: string[] = [];
  const ended = client
    .list('v1', 'ConfigMap', { namespace })
    .then((list) =>
      client.watch(
        `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
        (event) => {
          const { type, object } = event as { type: string; object: { metadata: { name: string } } };
          if (type === 'ADDED') added.push(object.metadata.name);
        },
        signal,
        60_000,
      ),
    )
    .then(
      () => 'ended',
      (e: unknown) => e,
    );
  return { added, ended };
}

const settled = async (until: () => boolean) => {
  for (let i = 0; i < 100 && !until(); i++) await new Promise((r) => setTimeout(r, 50));
};

describe('HTTP/2 runtime client', () => {
  it('carries 20 requests at once and a WATCH over one connection', async () => {
    countRequests(true);
    const client = await KubeClient.from(loadKubeConfig(runtimeKubeconfig()), { http2: true });
    const stop = new AbortController();
    const watch = watchAdded(client, stop.signal);
    await new Promise((r) => setTimeout(r, 300));
    const names = Array.from({ length: 20 }, (_, i) => `one-${i}`);
    await Promise.all(names.map((name) => client.create(configMap(namespace, name))));
    await settled(() => watch.added.length === names.length);
    stop.abort();
    expect(await watch.ended).toBe('ended');
    expect(watch.added.sort()).toEqual([...names].sort());
    expect(connections()).toBe(1);
  });

  it('carries 24 objects of 900 KB at once over one session (21 MB, above its 10 MB credit)', async () => {
    const client = await KubeClient.from(loadKubeConfig(runtimeKubeconfig()), { http2: true });
    const big = 'x'.repeat(900 * 1024);
    const names = Array.from({ length: 24 }, (_, i) => `big-${i}`);
    await Promise.all(names.map((name) => client.create({ ...configMap(namespace, name), data: { big } })));
    const read = await client.get<KubeObject & { data?: { big?: string } }>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace,
      name: 'big-23',
    });
    expect(read?.data?.big?.length).toBe(big.length);
  });

  it('a broken connection fails its calls as connection errors; the next call opens a new session', async () => {
    const proxy = await passThrough(serverOf(runtimeKubeconfig()));
    try {
      countRequests(true);
      const client = await KubeClient.from(loadKubeConfig(via(proxy.port)), { http2: true });
      const watch = watchAdded(client, new AbortController().signal);
      await client.create(configMap(namespace, 'before-cut'));
      await settled(() => watch.added.includes('before-cut'));
      proxy.cut();
      const broken = await watch.ended;
      expect(isConnectionError(broken)).toBe(true);
      expect(String(broken)).not.toMatch(/token|Bearer/i);
      await client.create(configMap(namespace, 'after-cut'));
      const read = await client.get<KubeObject & { data?: object }>({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace,
        name: 'after-cut',
      });
      expect(read?.data).toEqual({ at: 'after-cut' });
      expect(connections()).toBe(2);
    } finally {
      proxy.server.close();
    }
  });

  it('a connection that stops answering: the timed-out WATCH has the session PINGed, no answer ends it', async () => {
    const proxy = await passThrough(serverOf(runtimeKubeconfig()));
    try {
      countRequests(true);
      const client = await KubeClient.from(loadKubeConfig(via(proxy.port)), { http2: true });
      await client.create(configMap(namespace, 'before-freeze'));
      const list = await client.list('v1', 'ConfigMap', { namespace });
      proxy.freeze();
      const path = `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
      const silent = await client
        .watch(path, () => undefined, new AbortController().signal, 1_000)
        .then(
          () => 'ended',
          (e: unknown) => String(e),
        );
      expect(silent).toMatch(/no data for 1 s/);
      await new Promise((r) => setTimeout(r, 11_500));
      const read = await client.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: 'before-freeze' });
      expect(read?.metadata?.name).toBe('before-freeze');
      expect(connections()).toBe(2);
    } finally {
      proxy.server.close();
    }
  }, 30_000);

  it.each([
    ['offers only http/1.1', ['http/1.1']],
    ['ignores ALPN', undefined],
  ])('a TLS terminator that %s is reached over HTTP/1.1, requests and WATCH', async (name, protocols) => {
    const pki = await createClusterPki(join(pkiDir, name.replace(/\W/g, '-')), 'terminator');
    const [cert, key, ca] = await Promise.all([pki.servingCert, pki.servingKey, pki.caCert].map((f) => readFile(f)));
    const target = serverOf(runtimeKubeconfig());
    const terminator = tlsServer({ cert, key, ...(protocols ? { ALPNProtocols: protocols } : {}) }, (clear) => {
      const upstream = tlsConnect({
        host: target.hostname,
        port: Number(target.port),
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      });
      clear.on('error', () => upstream.destroy());
      upstream.on('error', () => clear.destroy());
      clear.pipe(upstream).pipe(clear);
    });
    await new Promise<void>((resolve) => terminator.listen(0, '127.0.0.1', resolve));
    try {
      const port = (terminator.address() as { port: number }).port;
      const client = await KubeClient.from(loadKubeConfig(via(port, ca?.toString())), { http2: true });
      const stop = new AbortController();
      const watch = watchAdded(client, stop.signal);
      const created = `terminated-${protocols ? 'h1' : 'none'}`;
      await new Promise((r) => setTimeout(r, 300));
      await client.create(configMap(namespace, created));
      await settled(() => watch.added.includes(created));
      stop.abort();
      expect(await watch.ended).toBe('ended');
      expect(watch.added).toEqual([created]);
    } finally {
      terminator.close();
    }
  });
});
