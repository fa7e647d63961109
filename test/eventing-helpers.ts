// What the tests of the local eventing runtime share: real HTTP subscribers (node:http servers) that record every
// request, a broker with Triggers, and the clean-up of both after each test.
import { CloudEvent, HTTP } from 'cloudevents';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import {
  DEFAULT_DELIVERY,
  LocalBroker,
  type EventFilter,
  type EventingLog,
  type Trigger,
} from '../local/eventing/index.ts';

export interface Request {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}
export type Respond = (request: Request, count: number, res: ServerResponse) => void;
export interface Subscriber {
  readonly url: string;
  readonly received: Request[];
}

/** What a test started, stopped after it (each test file calls `cleanUp` in its afterEach). */
export const cleanups: (() => Promise<unknown>)[] = [];
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export const ack: Respond = (_, __, res) => res.writeHead(204).end();
export const status =
  (...codes: number[]): Respond =>
  (_, n, res) =>
    res.writeHead(codes[Math.min(n, codes.length) - 1] ?? 204).end();
export const reply =
  (event: () => CloudEvent<unknown>, mode: 'binary' | 'structured' = 'binary'): Respond =>
  (_, __, res) => {
    const message = HTTP[mode](event());
    res.writeHead(200, message.headers as Record<string, string>).end(message.body as string);
  };

/** A real HTTP subscriber on 127.0.0.1 that records every request. */
export async function subscriber(respond: Respond = ack): Promise<Subscriber> {
  const received: Request[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      respond(request, received.length, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

export function recordingLog(): EventingLog & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug: () => undefined,
    info: () => undefined,
    warn: (_, message) => warnings.push(message),
    error: (_, message) => warnings.push(message),
  };
}

export const trigger = (
  name: string,
  filters: EventFilter[],
  url: string,
  delivery: Partial<Trigger['delivery']> = {},
): Trigger => ({
  name,
  broker: 'default',
  filters,
  subscriber: { uri: url },
  delivery: { ...DEFAULT_DELIVERY, backoffDelayMs: 20, ...delivery },
});

export async function startBroker(triggers: Trigger[], log: EventingLog = recordingLog()): Promise<LocalBroker> {
  const broker = new LocalBroker({ triggers, log, resolveSubscriber: (t) => t.subscriber.uri ?? '' });
  await broker.start();
  cleanups.push(() => broker.stop());
  return broker;
}

export const event = (type: string, extra: Record<string, unknown> = {}) =>
  new CloudEvent<unknown>({ type, source: '/test', data: { n: 1 }, ...extra });
export const types = (s: Subscriber) => s.received.map((r) => r.headers['ce-type']);
export const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 50 });
