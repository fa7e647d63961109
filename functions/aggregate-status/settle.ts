import type { Manifest } from '../../shared/core/manifest.ts';
import { APISERVER_DELETE, type EventAttributes } from '../../shared/host/events.ts';

/** What a Manifest event tells: its type, and the Manifest it carries (ApiServerSource data). */
type Event = Pick<EventAttributes, 'type'> & { data?: unknown };

/** How long a Kyma's status waits for more changes of its Manifests (ADR 26). */
export const SETTLE_MS = 1_000;

/** Where a Manifest event leaves its module: on its way (more changes are coming), settled, in trouble or gone. */
type Course = 'onItsWay' | 'settled' | 'trouble' | 'gone';

/** PURE. What a Manifest event says of its module: deleted or being deleted → gone; Error or Warning → trouble (reported
 * at once, ADR 26); Ready → settled; anything else (just created, Processing) → on its way. */
export function courseOf(event: Event): Course {
  const manifest = event.data as Partial<Manifest> | undefined;
  if (event.type === APISERVER_DELETE || manifest?.metadata?.deletionTimestamp) return 'gone';
  const state = manifest?.status?.state ?? '';
  if (state === 'Error' || state === 'Warning') return 'trouble';
  return state === 'Ready' ? 'settled' : 'onItsWay';
}

/** PURE. How long a Manifest event's batch waits for its siblings (ADR 26, 67), given how many of the Kyma's modules
 * are on their way: a second while this one or another is (their changes make one write); at once when it settles the
 * last one, or is in trouble. */
export function settleMsOf(course: Course, onTheirWay: number): number {
  if (course === 'trouble' || course === 'gone') return 0;
  return course === 'onItsWay' || onTheirWay > 0 ? SETTLE_MS : 0;
}

/** Per Kyma, the Manifests this instance last saw on their way (from the events it got; ADR 67). An instance that did
 * not see a Manifest's settling event keeps waiting the second, as before; a Kyma with none on its way is forgotten. */
export class ModulesOnTheirWay {
  private readonly byKyma = new Map<string, Set<string>>();

  /** Notes what `event` says of Manifest `manifest` of `kyma` and answers how long its batch settles. */
  settleMs(kyma: string, manifest: string, event: Event): number {
    const course = courseOf(event);
    const onTheirWay = this.byKyma.get(kyma) ?? new Set<string>();
    if (course === 'onItsWay') onTheirWay.add(manifest);
    else onTheirWay.delete(manifest);
    if (onTheirWay.size) this.byKyma.set(kyma, onTheirWay);
    else this.byKyma.delete(kyma);
    return settleMsOf(course, onTheirWay.size);
  }

  /** Kymas with a Manifest on its way (for tests and memory checks). */
  get size(): number {
    return this.byKyma.size;
  }
}
