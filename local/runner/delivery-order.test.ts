import { CloudEvent } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { APISERVER_ADD, APISERVER_DELETE, APISERVER_UPDATE, LANE, RESYNC_DUE } from '../../shared/host/events.ts';
import { DeliveryOrder, USER_FOLLOW_MS } from './delivery-order.ts';

const kymaEvent = (name: string, created: string, type = APISERVER_ADD) =>
  new CloudEvent({
    type,
    source: 'kcp',
    subject: `kcp-system/${name}`,
    kind: 'Kyma',
    namespace: 'kcp-system',
    name,
    data: { metadata: { name, namespace: 'kcp-system', creationTimestamp: created } },
  });
const manifestEvent = (name: string, kyma: string) =>
  new CloudEvent({
    type: APISERVER_UPDATE,
    source: 'kcp',
    subject: `kcp-system/${name}`,
    kind: 'Manifest',
    namespace: 'kcp-system',
    name,
    data: {
      metadata: {
        name,
        namespace: 'kcp-system',
        creationTimestamp: new Date().toISOString(),
        labels: { [LABEL.kymaName]: kyma },
      },
    },
  });
const ours = (name: string, lane?: string) =>
  new CloudEvent({
    type: RESYNC_DUE,
    source: 'runtime-watch',
    subject: `kcp-system/${name}`,
    kind: 'Kyma',
    namespace: 'kcp-system',
    name,
    ...(lane ? { [LANE]: lane } : {}),
  });

describe('DeliveryOrder', () => {
  it('ranks the work of the Kyma created first first, a Manifest with its Kyma, the user lane before all, background after all', () => {
    const order = new DeliveryOrder();
    const old = order.rankOf(kymaEvent('old', '2026-01-01T00:00:00Z'));
    const young = order.rankOf(kymaEvent('young', '2026-06-01T00:00:00Z'));
    expect(old).toBeLessThan(young);
    expect(order.rankOf(manifestEvent('old-m1', 'old')), 'a Manifest ranks as its Kyma').toBe(old);
    expect(order.rankOf(manifestEvent('young-m1', 'young'))).toBe(young);
    expect(order.rankOf(ours('old')), 'our own events about a known Kyma').toBe(old);
    const user = order.rankOf(ours('young', 'user'));
    const background = order.rankOf(ours('old', 'background'));
    expect(user).toBeLessThan(old);
    expect(background).toBeGreaterThan(young);
    expect(
      order.rankOf(manifestEvent('new-m1', 'unknown')),
      'an unknown Kyma ranks by arrival: after the known ones',
    ).toBeGreaterThan(young);
  });

  it('keeps the first creation time it saw, and forgets a deleted Kyma', () => {
    const order = new DeliveryOrder();
    const first = order.rankOf(kymaEvent('k', '2026-01-01T00:00:00Z'));
    expect(order.rankOf(kymaEvent('k', '2026-01-01T00:00:00Z', APISERVER_UPDATE))).toBe(first);
    order.rankOf(kymaEvent('k', '2026-01-01T00:00:00Z', APISERVER_DELETE));
    expect(order.rankOf(ours('k')), 'forgotten: ranks by arrival').toBeGreaterThan(first);
  });

  it("ranks a Kyma's other work with the user lane for a while after a user changed it, then by its age again", () => {
    let now = 1_000_000;
    const order = new DeliveryOrder(() => now);
    const old = order.rankOf(kymaEvent('old', '2026-01-01T00:00:00Z'));
    const young = order.rankOf(kymaEvent('young', '2026-06-01T00:00:00Z'));
    expect(order.rankOf(manifestEvent('young-m1', 'young')), 'before the edit: after the older Kyma').toBe(young);
    const edit = order.rankOf(ours('young', 'user'));
    const followUp = order.rankOf(manifestEvent('young-m1', 'young'));
    expect(followUp, "the edit's Manifest goes before the older Kyma's work").toBeLessThan(old);
    expect(followUp, 'in the user lane, by its Kyma').toBe(edit);
    expect(order.rankOf(ours('young')), "the Kyma's own events too").toBe(edit);
    expect(order.rankOf(ours('young', 'background')), 'not its background work').toBeGreaterThan(young);
    expect(order.rankOf(manifestEvent('other-m1', 'old')), 'other Kymas keep their rank').toBe(old);
    now += USER_FOLLOW_MS + 1;
    expect(order.rankOf(manifestEvent('young-m1', 'young')), 'after the window: by its age again').toBe(young);
  });
});
