// The broker's HTTP ingress: POST a CloudEvent (binary or structured mode) → 202 Accepted; malformed → 400.
import type { CloudEvent } from 'cloudevents';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestBody } from '../../shared/host/request-body.ts';
import { eventFromHttp } from './event-message.ts';

const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface Ingress {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on `host:port` (0 = a free port); every path accepts events, like a Broker address with any path. */
export async function startIngress(
  accept: (event: CloudEvent<unknown>) => void,
  port: number,
  host: string,
): Promise<Ingress> {
  const server = createServer((req, res) => void handle(req, res, accept));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`, close: () => closeServer(server) };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  accept: (event: CloudEvent<unknown>) => void,
): Promise<void> {
  if (req.method !== 'POST') return answer(res, 405, 'only POST is accepted', { allow: 'POST' });
  let body: Buffer | undefined;
  try {
    body = await requestBody(req, MAX_BODY_BYTES);
  } catch (e) {
    return answer(res, 400, `the event could not be read: ${(e as Error).message}`);
  }
  if (!body) return answer(res, 413, `the event is larger than ${MAX_BODY_BYTES} bytes`);
  let event: CloudEvent<unknown>;
  try {
    event = eventFromHttp(req.headers, body);
  } catch (e) {
    return answer(res, 400, `malformed CloudEvent: ${(e as Error).message}`);
  }
  try {
    accept(event);
  } catch (e) {
    return answer(res, 503, (e as Error).message);
  }
  answer(res, 202, '');
}

function answer(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, text ? { ...headers, 'content-type': 'text/plain; charset=utf-8' } : headers);
  res.end(text);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
