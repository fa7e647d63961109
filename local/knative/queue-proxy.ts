// Stands in for Knative Serving's queue-proxy and activator in front of a function's processes (Serving does not run
// here, ADR 36): at most the Service's containerConcurrency calls in flight per instance, the rest wait in order of
// arrival. Without it the in-memory channel's dispatcher (ADR 50) would open a connection per event at once.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

export interface QueueProxy {
  readonly port: number;
  /** Calls waiting for a free instance now. */
  waiting(): number;
  close(): Promise<void>;
}

/** Serving's queue-proxy accepts what its node accepts; a burst of connections must not be refused by a short queue. */
const BACKLOG = 4096;

/** Proxies HTTP calls to `ports` (one per instance), each instance taking at most `concurrency` at once. */
export async function startQueueProxy(ports: readonly number[], concurrency: number): Promise<QueueProxy> {
  const inFlight = ports.map(() => 0);
  const queue: ((instance: number) => void)[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const leastBusy = () =>
    inFlight.reduce((best, n, i) => (n < concurrency && (best < 0 || n < (inFlight[best] ?? 0)) ? i : best), -1);
  /** A free instance's slot now, or the one a finished call hands on (first come, first served). */
  const slot = (): Promise<number> => {
    const i = leastBusy();
    if (i < 0) return new Promise((resolve) => queue.push(resolve));
    inFlight[i] = (inFlight[i] ?? 0) + 1;
    return Promise.resolve(i);
  };
  const handOn = (i: number) => {
    const next = queue.shift();
    if (next) next(i);
    else inFlight[i] = (inFlight[i] ?? 1) - 1;
  };
  const forward = async (call: IncomingMessage, answer: ServerResponse) => {
    const i = await slot();
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      handOn(i);
    };
    // A sender that hung up while its call waited frees the slot at once; otherwise whichever ends first frees it:
    // the answer to the sender, or the call to the instance (replied or failed).
    if (answer.closed || answer.destroyed) return free();
    answer.on('close', free);
    const upstream = request(
      { host: '127.0.0.1', port: ports[i], method: call.method, path: call.url, headers: call.headers, agent },
      (reply) => {
        answer.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(answer);
      },
    );
    upstream.on('close', free);
    upstream.on('error', () => {
      if (!answer.headersSent) answer.writeHead(502);
      answer.end();
    });
    call.pipe(upstream);
  };
  const server = createServer((call, answer) => void forward(call, answer));
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '0.0.0.0', backlog: BACKLOG }, resolve));
  return {
    port: (server.address() as { port: number }).port,
    waiting: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
