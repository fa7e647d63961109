// The broker's HTTP ingress: POST a CloudEvent (binary or structured mode) → 202 Accepted; malformed → 400.
import type { CloudEvent } from 'cloudevents';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (e) {
    return answer(res, 413, (e as Error).message);
  }
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(new Error(`the event is larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
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
