import { Agent, request, type RequestOptions } from 'node:https';
import type { SecureContext } from 'node:tls';
import { tallyConnection } from './request-tally.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an API server answered: the status and the whole body. */
export interface Answer {
  status: number;
  body: string;
}

/** What a long-lived GET (a WATCH) reports: the status once, then the body as it arrives. */
export interface StreamListener {
  onStatus(status: number): void;
  onText(text: string): void;
}

/** How a KubeClient's requests reach its API server: HTTP/1.1 sockets (the control plane) or one HTTP/2 session
 * (runtimes, ADR 52). Errors name the method and path, never the headers (they carry credentials). */
export interface Transport {
  /** One request; rejects on a broken connection or after `timeoutMs` without an answer. */
  exchange(method: Method, path: string, headers: Headers, payload: string | undefined): Promise<Answer>;
  /** A GET streamed to `listener`; resolves when the server ends it or `signal` aborts, rejects on a broken
   * connection and after `idleMs` without data. */
  stream(path: string, headers: Headers, signal: AbortSignal, idleMs: number, listener: StreamListener): Promise<void>;
}

export type Headers = Record<string, string | number>;

/** Whom the transport trusts: the client's one TLS context (CA, certificate, key parsed once). */
export interface Trust {
  secureContext: SecureContext;
  rejectUnauthorized?: boolean;
}

export const REQUEST_TIMEOUT_MS = 30_000;

/** The largest answer a request takes (a LIST page at most; a runtime's server is untrusted, and a longer one would
 * fill the memory or pass the longest string V8 makes): over it, the request fails. */
export const MAX_ANSWER_BYTES = 128 * 2 ** 20;
export const tooLarge = (method: string, path: string): Error =>
  new Error(`${labelOf(method, path)}: an answer over ${MAX_ANSWER_BYTES / 2 ** 20} MiB`);

/** A kept-alive connection idle this long is closed (ADR 32): at thousands of runtimes, connections a drift check
 * opened minutes ago would otherwise each hold a TLS session's memory until the next one. */
export const IDLE_CONNECTION_MS = 30_000;

export const labelOf = (method: string, path: string): string => `${method} ${path.split('?')[0]}`;

/** A 2xx answer. */
export const accepted = (status: number): boolean => status >= 200 && status < 300;

/** HTTP/1.1 over a keep-alive agent of at most `connections` sockets; WATCH streams get sockets of their own, so
 * they never hold the agent's. */
export class Http1Transport implements Transport {
  private readonly server: string;
  private readonly agent: Agent;
  private readonly watchAgent: Agent;

  constructor(server: string, trust: Trust, connections: number) {
    this.server = server;
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, timeout: IDLE_CONNECTION_MS, ...trust });
    this.watchAgent = new Agent({ keepAlive: false, ...trust });
  }

  exchange(method: Method, path: string, headers: Headers, payload: string | undefined): Promise<Answer> {
    const options: RequestOptions = { agent: this.agent, method, headers, timeout: REQUEST_TIMEOUT_MS };
    return new Promise<Answer>((resolve, reject) => {
      const req = request(`${this.server}${path}`, options, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if ((size += c.length) > MAX_ANSWER_BYTES) req.destroy(tooLarge(method, path));
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.once('socket', (socket) => tallyConnection(this.server, socket));
      req.on('timeout', () => req.destroy(new Error(`${labelOf(method, path)}: timed out after 30 s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  stream(path: string, headers: Headers, signal: AbortSignal, idleMs: number, listener: StreamListener): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const req = request(`${this.server}${path}`, { agent: this.watchAgent, headers, signal }, (res) => {
        listener.onStatus(res.statusCode ?? 0);
        res.setEncoding('utf8');
        res.on('data', (text: string) => listener.onText(text));
        res.on('end', resolve);
        res.on('error', (e) => (signal.aborted ? resolve() : reject(e)));
      });
      req.once('socket', (socket) => tallyConnection(this.server, socket));
      req.setTimeout(idleMs, () => req.destroy(new Error(`${labelOf('WATCH', path)}: no data for ${idleMs / 1000} s`)));
      req.on('error', (e) => (signal.aborted ? resolve() : reject(e)));
      req.end();
    });
  }
}
