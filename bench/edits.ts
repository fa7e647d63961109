// Runtime-Kyma edits as a user makes them: one more module added to a Kyma on its runtime, timed to that module Ready
// in the KCP Kyma's status. After convergence (--edits) and while the fleet converges (--busy-edits).
import { OWN_RUNTIME, remoteKymaRef } from '../shared/core/runtime-scope.ts';
import type { BenchSettings } from './args.ts';
import { EDIT_MODULE, kymaName, type Fleet } from './fleet.ts';
import type { ReadinessTracker } from './readiness.ts';
import { editLatency, type EditMarks } from './edit-timeline.ts';
import { untilAll } from './wait.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../shared/kube/client.ts';
import type { ObjectRef } from '../shared/kube/types.ts';
import { isNotFound } from '../shared/kube/errors.ts';

type Say = (line: string) => void;

/** The Kymas the edits after convergence go to, spread over the fleet. */
export const idleEditTargets = (settings: BenchSettings) =>
  Array.from({ length: settings.edits }, (_, i) => kymaName(Math.floor((i * settings.kymas) / settings.edits)));

/** How long from `now` (ms since the epoch) until the next `second` of a UTC minute. */
export const untilSecond = (second: number, now: number): number => (second * 1000 - (now % 60_000) + 60_000) % 60_000;

/** Edits `names` (adds the edit module on their runtimes), `gapMs` apart, and answers when each was made and each hop was seen, up to
 * that module Ready. */
export async function editKymas(
  fleet: Fleet,
  names: readonly string[],
  edited: Set<string>,
  tracker: ReadinessTracker,
  timeoutSeconds: number,
  say: Say,
  what = 'edits Ready',
  gapMs = 0,
): Promise<EditMarks[]> {
  if (!names.length) return [];
  const at = new Map<string, number>();
  for (const [i, name] of names.entries()) {
    if (i > 0 && gapMs > 0) await sleep(gapMs);
    const runtime = fleet.runtimes[Number(name.slice(5)) % fleet.runtimes.length];
    if (!runtime) continue;
    edited.add(name);
    const ref = remoteKymaRef(fleet.runtimePerKyma ? OWN_RUNTIME : { namespace: name, shared: true });
    const spec = { modules: [...fleet.modules, EDIT_MODULE].map((m) => ({ name: m })) };
    at.set(
      name,
      await editOnceThere(runtime, ref, { spec }, timeoutSeconds, () => say(`${name}: no runtime Kyma yet`)),
    );
  }
  await untilAll(
    () => [...at.keys()].filter((k) => tracker.moduleReady.has(`${k}/${EDIT_MODULE}`)).length,
    at.size,
    what,
    timeoutSeconds,
    say,
  );
  const marks = [...at.entries()].map(([kyma, edited]) => marksOf(tracker, kyma, edited));
  say(`${what}: the slowest ${slowest(marks.map((m) => [m.kyma, editLatency(m)]))}`);
  return marks;
}

/** Patches the runtime Kyma once it is there, as a user would: a Kyma can be Ready a moment before resolve-template
 * creates its runtime Kyma. Answers when the patch that found it was sent. */
async function editOnceThere(
  runtime: KubeClient,
  ref: ObjectRef,
  patch: object,
  timeoutSeconds: number,
  waiting: () => void,
): Promise<number> {
  const deadline = performance.now() + timeoutSeconds * 1000;
  for (let tries = 0; ; tries++) {
    const sent = performance.now();
    try {
      await runtime.mergePatch(ref, patch);
      return sent;
    } catch (error) {
      if (!isNotFound(error) || sent > deadline) throw error;
      if (tries === 0) waiting();
    }
    await sleep(200);
  }
}

/** What the bench's watches saw of the edit of `kyma` made at `edited`. */
function marksOf(tracker: ReadinessTracker, kyma: string, edited: number): EditMarks {
  const key = `${kyma}/${EDIT_MODULE}`;
  return {
    kyma,
    edited,
    listed: tracker.moduleListed.get(key),
    manifest: tracker.manifestSeen.get(key),
    applied: tracker.manifestReady.get(key),
    ready: tracker.moduleReady.get(key),
  };
}

/** PURE. The three slowest edits with their Kymas, slowest first ("kyma-4900 67.2 s, …"): where to look in the logs. */
export function slowest(took: readonly (readonly [string, number])[], count = 3): string {
  return [...took]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([kyma, ms]) => `${kyma} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
}

/** While the fleet converges: once a tenth of it is Ready, the first B Ready Kymas (not among the later edits' targets)
 * get the edit, one after the other as a user would, while the rest of the fleet is still being installed. */
export async function busyEdits(
  fleet: Fleet,
  settings: BenchSettings,
  edited: Set<string>,
  tracker: ReadinessTracker,
  say: Say,
): Promise<EditMarks[]> {
  if (!settings.busyEdits) return [];
  const reserved = new Set(idleEditTargets(settings));
  const candidates = () => [...tracker.kymaReady.keys()].filter((name) => !reserved.has(name));
  const enough = Math.max(settings.busyEdits, Math.ceil(settings.kymas / 10));
  await untilAll(
    () => Math.min(candidates().length, enough),
    enough,
    'Kymas Ready before the busy edits',
    settings.timeoutSeconds,
    () => undefined,
  );
  const names = candidates().slice(0, settings.busyEdits);
  say(
    `${names.length} runtime-Kyma edits while ${settings.kymas - tracker.kymaReady.size} Kymas are still converging (add ${EDIT_MODULE})`,
  );
  return editKymas(fleet, names, edited, tracker, settings.timeoutSeconds, say, 'busy edits Ready');
}
