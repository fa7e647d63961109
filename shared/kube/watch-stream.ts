import { apiErrorFrom } from './errors.ts';
import { accepted, labelOf, type Headers, type Transport } from './transport.ts';
import { MAX_WATCH_LINE_CHARS, WatchLines } from './watch-lines.ts';

/** How much of a refused WATCH's answer is kept for its error. */
const REFUSAL_CHARS = 65_536;

interface WatchRequest {
  path: string;
  headers: Headers;
  signal: AbortSignal;
  idleMs: number;
}

/** A WATCH over `transport`: each JSON line goes to `onEvent`. Resolves when the server ends the stream or the signal
 * aborts; rejects on an error answer, a broken connection, `idleMs` without data, or a line that is not JSON, that
 * `onEvent` throws on, or that never ends (the stream cut: untrusted input). `onOpen`: the server accepted it. */
export function watchStream(
  transport: Transport,
  { path, headers, signal, idleMs }: WatchRequest,
  onEvent: (event: unknown) => void,
  onOpen?: () => void,
): Promise<void> {
  const label = labelOf('WATCH', path);
  let status = 0;
  const lines = new WatchLines();
  let refused = '';
  const cut = new AbortController();
  let broken: Error | undefined;
  const end = (why: string) => {
    broken ??= new Error(`${label}: ${why}`);
    cut.abort();
  };
  const take = (line: string) => {
    try {
      onEvent(JSON.parse(line));
    } catch (error) {
      // Neither the line nor the error's text (which may quote it) is kept: the line may carry a runtime's data.
      end(error instanceof SyntaxError ? 'a line that is not JSON' : 'an event it could not take');
    }
  };
  const listener = {
    onStatus: (answered: number) => {
      status = answered;
      if (accepted(status)) onOpen?.();
    },
    onText: (text: string) => {
      if (!accepted(status)) return void (refused = `${refused}${text}`.slice(0, REFUSAL_CHARS));
      if (broken) return;
      const complete = lines.take(text);
      if (!complete) return end(`a line over ${MAX_WATCH_LINE_CHARS / 2 ** 20} MiB`);
      for (const line of complete) if (!broken) take(line);
    },
  };
  return transport.stream(path, headers, AbortSignal.any([signal, cut.signal]), idleMs, listener).then(() => {
    if (broken) throw broken;
    if (!signal.aborted && !accepted(status)) throw apiErrorFrom(status, refused, label);
  });
}
