import type { CloudEvent } from 'cloudevents';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { APISERVER_DELETE, LANE, LANE_BACKGROUND, LANE_USER } from '../../shared/host/events.ts';

interface Seen {
  metadata?: { namespace?: string; name?: string; creationTimestamp?: string; labels?: Record<string, string> };
}

/** Lanes are ranked apart by more than any time in milliseconds. */
const LANE_STEP = 1e13;

/**
 * The local broker's order of waiting deliveries (ADR 25): the user lane first; within a lane, the work of the Kyma
 * created first goes first — a Manifest's events rank with its Kyma —, so a fleet converges Kyma by Kyma as a work
 * queue finishes what it started, instead of every Kyma waiting until all are done. Work for a Kyma not seen yet ranks
 * by its arrival. Kyma creation times come from the API server's events the broker routes (their data).
 */
export class DeliveryOrder {
  private readonly created = new Map<string, number>();

  readonly rankOf = (event: CloudEvent<unknown>): number => {
    const lane = event[LANE] === LANE_USER ? 0 : event[LANE] === LANE_BACKGROUND ? 2 : 1;
    return lane * LANE_STEP + this.orderOf(event);
  };

  private orderOf(event: CloudEvent<unknown>): number {
    const seen = (event.data as Seen | undefined)?.metadata;
    const namespace = String(event.namespace ?? seen?.namespace ?? '');
    if (event.kind === 'Kyma') {
      const key = `${namespace}/${String(event.name ?? seen?.name ?? '')}`;
      const created = seen?.creationTimestamp ? Date.parse(seen.creationTimestamp) : Number.NaN;
      if (event.type === APISERVER_DELETE) this.created.delete(key);
      else if (!Number.isNaN(created) && !this.created.has(key)) this.created.set(key, created);
      return this.created.get(key) ?? (Number.isNaN(created) ? Date.now() : created);
    }
    const kyma = event.kind === 'Manifest' ? seen?.labels?.[LABEL.kymaName] : undefined;
    return (kyma === undefined ? undefined : this.created.get(`${namespace}/${kyma}`)) ?? Date.now();
  }
}
