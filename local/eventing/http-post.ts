import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface PostOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/** One HTTP POST (no redirects followed, like a Knative dispatcher treats 3xx as an answer). */
export function post(url: string, options: PostOptions): Promise<HttpAnswer> {
  const secure = url.startsWith('https:');
  const send = secure ? httpsRequest : httpRequest;
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const headers = { ...options.headers, 'content-length': String(body.byteLength) };
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = send(
      url,
      { method: 'POST', headers, agent: secure ? agents.https : agents.http, signal: options.signal },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      const timer = setTimeout(
        () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
      req.on('close', () => clearTimeout(timer));
    }
    req.on('error', reject);
    req.end(body);
  });
}
