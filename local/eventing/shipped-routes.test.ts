// Which functions the shipped Triggers (manifests/triggers) hand a `resync.due` to, by lane and reason: a drift check
// is for Ready Kymas only, so it never reaches purge (ADR 91); every other one about a Kyma does.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANE, LANE_BACKGROUND, LANE_USER, MODULES_DUE, RESYNC_DUE } from '../../shared/host/events.ts';
import { RESYNC_DRIFT, RESYNC_PENDING, RESYNC_REASON, RESYNC_RELEASE } from '../../shared/core/resync-reasons.ts';
import { matchesAll } from './filters.ts';
import { loadTriggers } from './triggers.ts';

const SHIPPED = await loadTriggers(fileURLToPath(new URL('../../manifests/triggers', import.meta.url)));

/** The functions whose shipped Triggers pass a `resync.due` about `kind` with these extensions, each named once. */
function reached(kind: string, extensions: Record<string, string>): string[] {
  const event = { specversion: '1.0', type: RESYNC_DUE, kind, ...extensions };
  const names = SHIPPED.filter((t) => matchesAll(t.filters, event)).map((t) => t.subscriber.ref?.name ?? '');
  return [...new Set(names)].sort();
}

const LANES = [{}, { [LANE]: LANE_BACKGROUND }, { [LANE]: LANE_USER }];
const drift = { [RESYNC_REASON]: RESYNC_DRIFT };
const pending = { [RESYNC_REASON]: RESYNC_PENDING };

describe("a resync.due's functions", () => {
  it("takes a Kyma's drift check to resolve-template and aggregate-status, not to purge, in every lane", () => {
    for (const lane of LANES)
      expect(reached('Kyma', { ...lane, ...drift }), JSON.stringify(lane)).toEqual([
        'aggregate-status',
        'resolve-template',
      ]);
  });

  it('takes every other Kyma resync.due to purge as well: pending, a release tick, none (a full check)', () => {
    for (const lane of LANES)
      for (const reason of [pending, { [RESYNC_REASON]: RESYNC_RELEASE }, {}])
        expect(reached('Kyma', { ...lane, ...reason }), JSON.stringify({ lane, reason })).toEqual([
          'aggregate-status',
          'purge',
          'resolve-template',
        ]);
  });

  it("takes a Kyma's modules due for drift checks to apply-remote alone, in the background lane (ADR 94)", () => {
    const event = { specversion: '1.0', type: MODULES_DUE, kind: 'Kyma', ...drift };
    const to = (lane: Record<string, string>) =>
      SHIPPED.filter((t) => matchesAll(t.filters, { ...event, ...lane })).map((t) => t.name);
    expect(to({ [LANE]: LANE_BACKGROUND })).toEqual(['apply-remote-background']);
    expect([...to({}), ...to({ [LANE]: LANE_USER })], 'the resync sends it in the background lane only').toEqual([]);
  });

  it("takes a Manifest's drift check and its other resyncs to apply-remote alone", () => {
    for (const lane of LANES)
      for (const reason of [drift, pending, {}])
        expect(reached('Manifest', { ...lane, ...reason })).toEqual(['apply-remote']);
  });
});
