import type { CloudEvent } from 'cloudevents';
import { rankOfLane } from '../../shared/host/call-gate.ts';
import { APISERVER_DELETE, type EventAttributes } from '../../shared/host/events.ts';
import { laneOf } from '../../shared/host/lane.ts';
import { carriedKymaName } from '../../shared/kube/kyma-of.ts';

interface Seen {
  metadata?: { namespace?: string; name?: string; creationTimestamp?: string };
}

/** Lanes are ranked apart by more than any time in milliseconds. */
const LANE_STEP = 1e13;

/** How long the work of a Kyma a user just changed ranks with the user lane (ADR 68): its Manifests' events carry no
 * lane, and without this an edit of a new Kyma waits behind every older Kyma's work. */
export const USER_FOLLOW_MS = 120_000;

/**
 * The local broker's order of waiting deliveries (ADR 25): the user lane first — an event's own or the one our write it
 * is about recorded (ADR 72), and for USER_FOLLOW_MS the other work of a Kyma the user lane was about (ADR 68) —;
 * within a lane, the work of the Kyma created first goes first — a Manifest's events rank with its Kyma —, so a fleet
 * converges Kyma by Kyma as a work queue finishes what it started, instead of every Kyma waiting until all are done.
 * Work for a Kyma not seen yet ranks by its arrival. Kyma creation times come from the API server's events the broker
 * routes (their data).
 */
export class DeliveryOrder {
  private readonly created = new Map<string, number>();
  /** Kyma → when a user-lane event about it was last ranked. */
  private readonly changedByUser = new Map<string, number>();

  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  readonly rankOf = (event: CloudEvent<unknown>): number => {
    const kyma = kymaKeyOf(event);
    const lane = rankOfLane(laneOf(event as EventAttributes));
    if (lane === 0 && kyma) this.noteUserChange(kyma);
    const followsUser = lane === 1 && kyma !== undefined && this.changedRecently(kyma);
    return (followsUser ? 0 : lane) * LANE_STEP + this.orderOf(event, kyma);
  };

  private orderOf(event: CloudEvent<unknown>, kyma: string | undefined): number {
    if (event.kind === 'Kyma' && kyma) {
      const seen = (event.data as Seen | undefined)?.metadata;
      const created = seen?.creationTimestamp ? Date.parse(seen.creationTimestamp) : Number.NaN;
      if (event.type === APISERVER_DELETE) this.created.delete(kyma);
      else if (!Number.isNaN(created) && !this.created.has(kyma)) this.created.set(kyma, created);
      return this.created.get(kyma) ?? (Number.isNaN(created) ? Date.now() : created);
    }
    return (kyma === undefined ? undefined : this.created.get(kyma)) ?? Date.now();
  }

  private noteUserChange(kyma: string): void {
    const now = this.now();
    this.changedByUser.set(kyma, now);
    // Bounded: the expired ones go once there are many (a burst of edits).
    if (this.changedByUser.size > 1024)
      for (const [key, at] of this.changedByUser) if (now - at > USER_FOLLOW_MS) this.changedByUser.delete(key);
  }

  private changedRecently(kyma: string): boolean {
    const at = this.changedByUser.get(kyma);
    if (at === undefined) return false;
    if (this.now() - at <= USER_FOLLOW_MS) return true;
    this.changedByUser.delete(kyma);
    return false;
  }
}

/** `namespace/name` of the Kyma an event is about: its own, or a Manifest's by its kyma-name label (event data). */
function kymaKeyOf(event: CloudEvent<unknown>): string | undefined {
  const seen = (event.data as Seen | undefined)?.metadata;
  const namespace = String(event.namespace ?? seen?.namespace ?? '');
  if (event.kind === 'Kyma') return `${namespace}/${String(event.name ?? seen?.name ?? '')}`;
  const kyma = event.kind === 'Manifest' ? carriedKymaName(event) : undefined;
  return kyma === undefined ? undefined : `${namespace}/${kyma}`;
}
