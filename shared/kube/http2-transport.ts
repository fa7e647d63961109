import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { tallyConnection } from './request-tally.ts';
import {
  IDLE_CONNECTION_MS,
  labelOf,
  MAX_ANSWER_BYTES,
  REQUEST_TIMEOUT_MS,
  tooLarge,
  type Answer,
  type Headers,
  type Method,
  type StreamListener,
  type Transport,
  type Trust,
} from './transport.ts';

/** A session that does not answer a PING within this long after a stream timed out is taken for dead. */
const PING_MS = 10_000;

/** A request or WATCH: its answer goes to `listener`; it fails after `idleMs` without data. */
interface Call {
  method: Method;
  path: string;
  headers: Headers;
  payload?: string | undefined;
  idleMs: number;
  listener: StreamListener;
  signal?: AbortSignal;
  /** The longest answer taken, in characters (a request's; a WATCH's lines are bounded by its reader). */
  most?: number;
}

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
    const answer: Answer = { status: 0, body: '' };
    const listener = {
      onStatus: (status: number) => (answer.status = status),
      onText: (text: string) => (answer.body += text),
    };
    const call = { method, path, headers, payload, idleMs: REQUEST_TIMEOUT_MS, listener, most: MAX_ANSWER_BYTES };
    const http1 = await this.send(call);
    return http1 ? http1.exchange(method, path, headers, payload) : answer;
  }

  async stream(
    path: string,
    headers: Headers,
    signal: AbortSignal,
    idleMs: number,
    listener: StreamListener,
  ): Promise<void> {
    if (signal.aborted) return;
    const http1 = await this.send({ method: 'GET', path, headers, idleMs, listener, signal });
    if (http1) await http1.stream(path, headers, signal, idleMs, listener);
  }

  /** Sends a call as a stream of the session; or answers the HTTP/1.1 transport that must send it (the server does not
   * speak HTTP/2). */
  private async send(call: Call): Promise<Transport | undefined> {
    if (this.http1) return this.http1;
    const { method, path, payload, signal } = call;
    const { live, stream } = this.open(
      { ...lower(call.headers), ':method': method, ':path': path },
      payload === undefined,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        let over = false;
        const end = (error?: Error) => ((over = true), error ? reject(error) : resolve());
        const abort = () => (end(), stream.close(constants.NGHTTP2_CANCEL));
        signal?.addEventListener('abort', abort, { once: true });
        stream.once('close', () => signal?.removeEventListener('abort', abort));
        stream.on('response', (answer) => call.listener.onStatus(Number(answer[':status'])));
        stream.setEncoding('utf8');
        let size = 0;
        stream.on('data', (text: string) => {
          if (over) return;
          if ((size += text.length) > (call.most ?? Infinity)) return void (end(tooLarge(method, path)), abort());
          call.listener.onText(text);
        });
        stream.on('end', () => end(cut(stream) ? lost(call) : undefined));
        stream.on('error', (e) => end(unwrap(e)));
        // After an end or an error, the close that follows has nothing to say: no error is made for it.
        stream.on('close', () => over || end(lost(call)));
        stream.setTimeout(call.idleMs, () => {
          end(new Error(`${label(call)}: ${signal ? 'no data for' : 'timed out after'} ${call.idleMs / 1000} s`));
          this.check(live, stream);
        });
        if (payload !== undefined) stream.end(payload);
      });
      return undefined;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!live.notHttp2 && code !== 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') throw error;
      return (this.http1 ??= this.fallback());
    }
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
const lost = (call: Call): Error =>
  Object.assign(new Error(`${label(call)}: connection closed before the answer ended`), { code: 'ECONNRESET' });

/** How errors name a call: a WATCH (it has a signal) or the method, and the path without its query. */
const label = (call: Call): string => labelOf(call.signal ? 'WATCH' : call.method, call.path);
