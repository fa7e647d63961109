// Waiting for counts to reach a total, with a deadline and a progress line every 10 s.
import { setTimeout as sleep } from 'node:timers/promises';

export async function untilAll(
  count: () => number,
  total: number,
  what: string,
  timeoutSeconds: number,
  say: (line: string) => void,
  detail = () => '',
): Promise<void> {
  const deadline = performance.now() + timeoutSeconds * 1000;
  let lastSaid = 0;
  while (count() < total) {
    if (performance.now() > deadline)
      throw new Error(`${what}: ${count()} of ${total} within ${timeoutSeconds} s${detail()}`);
    if (performance.now() - lastSaid > 10_000) {
      say(`${what}: ${count()}/${total}${detail()}`);
      lastSaid = performance.now();
    }
    await sleep(200);
  }
  say(`${what}: ${total}/${total}`);
}
