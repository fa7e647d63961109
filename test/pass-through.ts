// A TCP pass-through in front of a real API server, for faults of the network path between a client and the server:
// the TLS session stays end to end, the pass-through only forwards, breaks or stops the bytes.
import { connect as tcpConnect, createServer as tcpServer, type Server, type Socket } from 'node:net';

export interface PassThrough {
  port: number;
  server: Server;
  /** Breaks the open connections. */
  cut: () => void;
  /** Stops forwarding on the open connections without closing them (a dead network path). */
  freeze: () => void;
  /** While true, a new connection is closed at once (the server unreachable); `cut()` the open ones too for that. */
  refuse: (on: boolean) => void;
}

/** Forwards every connection on a port of its own to `target` (the API server's URL). */
export async function passThrough(target: URL): Promise<PassThrough> {
  const open = new Set<Socket>();
  let refusing = false;
  const server = tcpServer((socket) => {
    if (refusing) return void socket.destroy();
    const upstream = tcpConnect(Number(target.port), target.hostname);
    for (const end of [socket, upstream]) {
      open.add(end);
      end.on('close', () => open.delete(end));
      end.on('error', () => undefined);
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    server,
    cut: () => open.forEach((s) => s.destroy()),
    freeze: () => open.forEach((s) => (s.unpipe(), s.pause())),
    refuse: (on) => void (refusing = on),
  };
}
