// A CPU profile of a running Node process without restarting it: SIGUSR1 opens its inspector on 127.0.0.1, the
// DevTools protocol's Profiler samples it for a while, and the inspector is closed again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CpuProfile } from './profile-summary.ts';

export interface ProfileRequest {
  pid: number;
  seconds: number;
  intervalUs: number;
  port: number;
}

/** The WebSocket address of the inspector listening on `port` (waited for up to 10 s after the signal). */
async function inspectorOf(port: number): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const answer = await fetch(`http://127.0.0.1:${port}/json/list`).catch(() => undefined);
    const targets = answer?.ok ? ((await answer.json()) as { webSocketDebuggerUrl?: string }[]) : [];
    const address = targets[0]?.webSocketDebuggerUrl;
    if (address) return address;
    if (Date.now() > until) throw new Error(`no inspector answered on 127.0.0.1:${port} within 10 s`);
    await sleep(200);
  }
}

/** One DevTools session: `send` answers the result of a method call, or rejects with the protocol's error. */
async function session(address: string): Promise<{
  send: (method: string, params?: object) => Promise<unknown>;
  closed: Promise<unknown>;
  close: () => void;
}> {
  const socket = new WebSocket(address);
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.addEventListener('message', (message) => {
    const data = JSON.parse(String(message.data)) as { id?: number; result?: unknown; error?: { message: string } };
    if (data.id === undefined) return;
    const call = waiting.get(data.id);
    if (!call) return;
    waiting.delete(data.id);
    if (data.error) call.reject(new Error(data.error.message));
    else call.resolve(data.result);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error(`could not connect to ${address}`)), { once: true });
  });
  const closed = new Promise((resolve) => socket.addEventListener('close', resolve, { once: true }));
  let next = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, closed, close: () => socket.close() };
}

/** Samples the process `pid` for `seconds`, one sample per `intervalUs`, and answers the profile. */
export async function profileProcess(request: ProfileRequest): Promise<CpuProfile> {
  process.kill(request.pid, 'SIGUSR1');
  const devtools = await session(await inspectorOf(request.port));
  try {
    await devtools.send('Profiler.enable');
    await devtools.send('Profiler.setSamplingInterval', { interval: request.intervalUs });
    await devtools.send('Profiler.start');
    await sleep(request.seconds * 1000);
    const { profile } = (await devtools.send('Profiler.stop')) as { profile: CpuProfile };
    return profile;
  } finally {
    // The inspector is not left listening: `process._debugEnd` closes it, and this session with it, before it can
    // answer (the signal opens it again next time).
    void devtools.send('Runtime.evaluate', { expression: 'process._debugEnd()' }).catch(() => undefined);
    await Promise.race([devtools.closed, sleep(2_000)]);
    devtools.close();
  }
}
