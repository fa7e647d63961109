import { setTimeout as sleep } from 'node:timers/promises';
import type { World } from './world.ts';
import { writeSnapshot } from './snapshot.ts';

/** Waits until nothing is written for `quietMs` (the run has converged), then returns the snapshot. */
export async function converged(world: World, quietMs = 3_000, timeoutMs = 60_000): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = await writeSnapshot(world.kcp, world.runtimes);
  for (;;) {
    await world.runner.broker.idle();
    await sleep(quietMs);
    const now = await writeSnapshot(world.kcp, world.runtimes);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    const moved = Object.keys(now).filter((k) => now[k] !== last[k]);
    if (Date.now() > deadline) throw new Error(`the fleet did not stop writing: ${moved.join(', ')}`);
    console.log(`[converged] still writing: ${moved.join(', ')}`);
    last = now;
  }
}
