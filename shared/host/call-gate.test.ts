import { describe, expect, it } from 'vitest';
import { CallGate, rankOfLane } from './call-gate.ts';

/** A call that runs until `release()`, noting when it started. */
function heldCall(started: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((resolve) => (release = resolve));
  const work = async () => {
    started.push(name);
    await done;
  };
  return { work, release: () => release() };
}

describe('the calls an instance runs at once (ADR 72)', () => {
  it('starts the waiting calls user lane first, then the main lane, then the background lane, each by arrival', async () => {
    const gate = new CallGate(1);
    const started: string[] = [];
    const first = heldCall(started, 'first');
    const running = [gate.run(1, first.work)];
    for (const [name, rank] of [
      ['main-1', 1],
      ['background', 2],
      ['main-2', 1],
      ['user-1', 0],
      ['user-2', 0],
    ] as const)
      running.push(gate.run(rank, async () => void started.push(name)));
    await Promise.resolve();
    expect(started).toEqual(['first']);
    expect(gate.queued).toBe(5);
    first.release();
    await Promise.all(running);
    expect(started).toEqual(['first', 'user-1', 'user-2', 'main-1', 'main-2', 'background']);
    expect(gate.queued).toBe(0);
  });

  it('runs up to its limit at once, and everything at once with none; a failed call frees its slot', async () => {
    const gate = new CallGate(2);
    const started: string[] = [];
    const calls = ['a', 'b', 'c'].map((n) => heldCall(started, n));
    const running = calls.map((c) => gate.run(1, c.work));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    const failing = gate.run(0, async () => Promise.reject(new Error('boom')));
    calls[0]?.release();
    await expect(failing).rejects.toThrow('boom');
    await running[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started, "the failed call's slot went to the next waiting one").toEqual(['a', 'b', 'c']);
    for (const c of calls) c.release();
    await Promise.all(running);

    const open = new CallGate(0);
    const all: string[] = [];
    const held = ['x', 'y', 'z'].map((n) => heldCall(all, n));
    const free = held.map((c) => open.run(2, c.work));
    await Promise.resolve();
    expect(all).toEqual(['x', 'y', 'z']);
    for (const c of held) c.release();
    await Promise.all(free);
  });

  it('ranks lanes as the local broker does', () => {
    expect([rankOfLane('user'), rankOfLane(undefined), rankOfLane('background')]).toEqual([0, 1, 2]);
  });
});
