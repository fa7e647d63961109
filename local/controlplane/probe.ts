import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface TlsMaterial {
  ca?: string;
  cert?: string;
  key?: string;
}

export interface ProbeResponse {
  status: number;
  body: string;
}

/** One GET that gives up when the server is silent for `timeoutMs` (5 s); resolves with status and body, rejects on
 * connection errors and on that timeout. */
export function get(url: string, tls: TlsMaterial = {}, timeoutMs = 5_000): Promise<ProbeResponse> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', timeout: timeoutMs, ...tls }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

export async function answers(url: string, tls: TlsMaterial = {}, status = 200): Promise<boolean> {
  return (await get(url, tls)).status === status;
}
