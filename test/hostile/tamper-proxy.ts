// A man in the middle between the lifecycle manager and the real registry: forwards every request as it is, except
// that the blobs it is told to tamper with come back with other bytes under the same digest.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TamperProxy {
  host: string;
  /** Blob digest → the bytes served instead. */
  tampered: Map<string, Uint8Array>;
  /** Requests that got tampered bytes. */
  served: string[];
  close(): Promise<void>;
}

export async function startTamperProxy(registryHost: string): Promise<TamperProxy> {
  const tampered = new Map<string, Uint8Array>();
  const served: string[] = [];
  const [hostname, port] = registryHost.split(':');
  const server: Server = createServer((req, res) => {
    const digest = /\/blobs\/(sha256:[a-f0-9]{64})$/.exec(req.url ?? '')?.[1];
    const swap = req.method === 'GET' && digest ? tampered.get(digest) : undefined;
    if (swap) {
      served.push(req.url ?? '');
      res
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': swap.length,
          'docker-content-digest': digest ?? '',
        })
        .end(swap);
      return;
    }
    const upstream = request(
      {
        hostname,
        port: Number(port),
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: registryHost },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    tampered,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
