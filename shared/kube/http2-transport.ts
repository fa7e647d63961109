import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { tallyConnection } from './request-tally.ts';
import {
  IDLE_CONNECTION_MS,
  labelOf,
  REQUEST_TIMEOUT_MS,
  type Answer,
  type Headers,
  type Method,
  type StreamListener,
  type Transport,
  type Trust,
} from './transport.ts';

/** A session that does not answer a PING within this long after a stream timed out is taken for dead. */
const PING_MS = 10_000;

/** One HTTP/2 session to the server and what rides on it. */
interface Session {
  session: ClientHttp2Session;
  streams: number;
  idle?: NodeJS.Timeout;
  pinging?: boolean;
  /** The server chose HTTP/1.1 (or no protocol): its streams fail, and the transport falls back. */
  notHttp2?: boolean;
}

/** One HTTP/2 session per API server carries every request and WATCH of a client (ADR 52): renewed after a GOAWAY or a
 * broken connection, closed 30 s after its last stream, PINGed when a stream times out (no answer ends it). A server
 * that does not speak HTTP/2 gets the HTTP/1.1 transport from then on. */
export class Http2Transport implements Transport {
  private current: Session | undefined;
  private http1: Transport | undefined;

  private readonly server: string;
  private readonly trust: Trust;
  private readonly fallback: () => Transport;

  constructor(server: string, trust: Trust, fallback: () => Transport) {
    this.server = server;
    this.trust = trust;
    this.fallback = fallback;
  }

  async exchange(method: Method, path: string, headers: Headers, payload: string | undefined): Promise<Answer> {
    if (this.http1) return this.http1.exchange(method, path, headers, payload);
    const { live, stream } = this.open({ ...lower(headers), ':method': method, ':path': path }, payload === undefined);
    return new Promise<Answer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      stream.on('response', (answer) => (status = Number(answer[':status'])));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        cut(stream)
          ? reject(lost(labelOf(method, path)))
          : resolve({ status, body: Buffer.concat(chunks).toString('utf8') }),
      );
      stream.on('error', (e) => reject(unwrap(e)));
      stream.on('close', () => reject(lost(labelOf(method, path))));
      stream.setTimeout(REQUEST_TIMEOUT_MS, () => {
        reject(new Error(`${labelOf(method, path)}: timed out after ${REQUEST_TIMEOUT_MS / 1000} s`));
        this.check(live, stream);
      });
      if (payload !== undefined) stream.end(payload);
    }).catch((e: unknown) => this.retried(live, e, () => this.exchange(method, path, headers, payload)));
  }

  async stream(
    path: string,
    headers: Headers,
    signal: AbortSignal,
    idleMs: number,
    listener: StreamListener,
  ): Promise<void> {
    if (this.http1) return this.http1.stream(path, headers, signal, idleMs, listener);
    if (signal.aborted) return;
    const { live, stream } = this.open({ ...lower(headers), ':method': 'GET', ':path': path }, true);
    return new Promise<void>((resolve, reject) => {
      const abort = () => {
        resolve();
        stream.close(constants.NGHTTP2_CANCEL);
      };
      signal.addEventListener('abort', abort, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', abort));
      stream.on('response', (answer) => listener.onStatus(Number(answer[':status'])));
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => listener.onText(text));
      stream.on('end', () => (cut(stream) ? reject(lost(labelOf('WATCH', path))) : resolve()));
      stream.on('error', (e) => reject(unwrap(e)));
      stream.on('close', () => reject(lost(labelOf('WATCH', path))));
      stream.setTimeout(idleMs, () => {
        reject(new Error(`${labelOf('WATCH', path)}: no data for ${idleMs / 1000} s`));
        this.check(live, stream);
      });
    }).catch((e: unknown) => this.retried(live, e, () => this.stream(path, headers, signal, idleMs, listener)));
  }

  /** The session new streams go to: the current one, or a new one when there is none. */
  private session(): Session {
    if (this.current && !this.current.session.closed && !this.current.session.destroyed) return this.current;
    const session = connect(this.server, { ...this.trust });
    const live: Session = { session, streams: 0 };
    this.current = live;
    tallyConnection(this.server, { connecting: true });
    const forget = () => this.current === live && (this.current = undefined);
    session.on('goaway', forget);
    session.on('close', forget);
    session.on('error', forget);
    session.on('connect', (_session, socket) => {
      if ((socket as { alpnProtocol?: string | false }).alpnProtocol !== 'h2') live.notHttp2 = true;
    });
    session.unref();
    return live;
  }

  /** A stream on the current session, or on a new one when the current one went away in the meantime (a GOAWAY it
   * has not reported yet). A session with streams keeps the process alive; one without closes after a while. */
  private open(
    headers: Record<string, string | number>,
    endStream: boolean,
  ): { live: Session; stream: ClientHttp2Stream } {
    let live = this.session();
    let stream: ClientHttp2Stream;
    try {
      stream = live.session.request(headers, { endStream });
    } catch {
      if (this.current === live) this.current = undefined;
      live = this.session();
      stream = live.session.request(headers, { endStream });
    }
    clearTimeout(live.idle);
    if (live.streams++ === 0) live.session.ref();
    stream.once('close', () => {
      if (--live.streams > 0) return;
      live.session.unref();
      live.idle = setTimeout(() => live.session.close(), IDLE_CONNECTION_MS).unref();
    });
    return { live, stream };
  }

  /** A stream timed out: cancel it, and end the session unless it answers a PING (a dead connection sends nothing). */
  private check(live: Session, stream: ClientHttp2Stream): void {
    stream.close(constants.NGHTTP2_CANCEL);
    if (live.pinging || live.session.destroyed) return;
    live.pinging = true;
    const dead = setTimeout(() => live.session.destroy(), PING_MS).unref();
    const answer = (error: Error | null) => {
      clearTimeout(dead);
      live.pinging = false;
      if (error) live.session.destroy();
    };
    // A session still connecting or closing cannot be PINGed (false, or a throw): after a timeout it is not worth keeping.
    try {
      if (!live.session.ping(answer)) live.session.destroy();
    } catch {
      live.session.destroy();
    }
  }

  /** A call that failed because the server does not speak HTTP/2 goes again over HTTP/1.1; any other failure stands. */
  private retried<T>(live: Session, error: unknown, again: () => Promise<T>): Promise<T> {
    const code = (error as { code?: unknown }).code;
    if (!live.notHttp2 && code !== 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') throw error;
    this.http1 ??= this.fallback();
    return again();
  }
}

/** HTTP/2 header names are lower case. */
const lower = (headers: Headers): Record<string, string | number> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** A stream cancelled because its session failed carries the session's error (ECONNREFUSED, a TLS verdict) as its
 * cause: that is the error callers classify. */
const unwrap = (error: Error): Error =>
  (error as { code?: unknown }).code === 'ERR_HTTP2_STREAM_CANCEL' && error.cause instanceof Error
    ? error.cause
    : error;

/** A broken connection ends its streams too, but reset (CANCEL): only an end without a reset is the server's. */
const cut = (stream: ClientHttp2Stream): boolean => (stream.rstCode ?? 0) !== 0;

/** A stream closed before its answer ended (a GOAWAY past it, a reset): a connection error, retried as one. */
const lost = (label: string): Error =>
  Object.assign(new Error(`${label}: connection closed before the answer ended`), { code: 'ECONNRESET' });
