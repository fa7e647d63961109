// The stand-in for Serving's queue-proxy (local/knative/queue-proxy.ts) in front of real HTTP servers: no instance gets
// more calls at once than its containerConcurrency, the rest wait and are served in order of arrival, nothing is lost.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startQueueProxy, type QueueProxy } from '../local/knative/queue-proxy.ts';

interface Instance {
  server: Server;
  port: number;
  held: { name: string; answer: ServerResponse }[];
  most: number;
}

const started: (Instance | QueueProxy)[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    if ('close' in s) await s.close();
    else s.server.close();
  }
});

/** A function instance that holds every call until `release` answers it, counting how many it held at once. */
async function instance(): Promise<Instance> {
  const me: Instance = { server: createServer(), port: 0, held: [], most: 0 };
  me.server.on('request', (call, answer) => {
    let body = '';
    call.on('data', (chunk: Buffer) => (body += chunk.toString()));
    call.on('end', () => {
      me.held.push({ name: body, answer });
      me.most = Math.max(me.most, me.held.length);
    });
  });
  await new Promise<void>((resolve) => me.server.listen(0, '127.0.0.1', resolve));
  me.port = (me.server.address() as { port: number }).port;
  started.push(me);
  return me;
}

const release = (i: Instance) => {
  const call = i.held.shift();
  call?.answer.writeHead(202, { 'x-served': call.name }).end(call.name);
  return call?.name;
};

const until = async (what: () => boolean) => {
  while (!what()) await new Promise((r) => setTimeout(r, 5));
};

describe('queue-proxy stand-in', () => {
  it('keeps each instance at its concurrency, queues the rest and serves them first come, first served', async () => {
    const [a, b] = [await instance(), await instance()];
    const proxy = await startQueueProxy([a.port, b.port], 2);
    started.push(proxy);
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
    const answers: Promise<Response>[] = [];
    for (const name of names) {
      answers.push(fetch(`http://127.0.0.1:${proxy.port}/`, { method: 'POST', body: name }));
      await until(() => a.held.length + b.held.length + proxy.waiting() === answers.length);
    }
    expect([a.held.length, b.held.length, proxy.waiting()]).toEqual([2, 2, 3]);
    expect([release(a), release(b)]).toEqual(['c1', 'c2']);
    // Each finished call hands its slot to the oldest waiting one.
    await until(() => a.held.length + b.held.length === 4);
    expect([a.held.map((c) => c.name), b.held.map((c) => c.name), proxy.waiting()]).toEqual([
      ['c3', 'c5'],
      ['c4', 'c6'],
      1,
    ]);
    while (a.held.length + b.held.length + proxy.waiting()) {
      for (const i of [a, b]) release(i);
      await new Promise((r) => setTimeout(r, 20));
    }
    const bodies = await Promise.all(
      answers.map(async (pending) => {
        const r = await pending;
        return [r.status, await r.text()];
      }),
    );
    expect(bodies).toEqual(names.map((n) => [202, n]));
    expect([a.most, b.most]).toEqual([2, 2]);
  });

  it('answers 502 when the instance is gone, and frees its slot for the next call', async () => {
    const a = await instance();
    const proxy = await startQueueProxy([a.port], 1);
    started.push(proxy);
    a.server.close();
    a.server.closeAllConnections();
    const first = await fetch(`http://127.0.0.1:${proxy.port}/`, { method: 'POST', body: 'x' });
    expect(first.status).toBe(502);
    const second = await fetch(`http://127.0.0.1:${proxy.port}/`, { method: 'POST', body: 'y' });
    expect(second.status).toBe(502);
    expect(proxy.waiting()).toBe(0);
  });
});
