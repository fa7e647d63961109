// Which functions the shipped Triggers (manifests/triggers) hand a `resync.due` to, by lane and reason: a drift check
// is for Ready Kymas only, so it never reaches purge (ADR 91); every other one about a Kyma does.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { matchesAll } from './filters.ts';
import { loadTriggers } from './triggers.ts';

const SHIPPED = fileURLToPath(new URL('../../manifests/triggers', import.meta.url));

/** The functions whose Triggers pass a `resync.due` about `kind` with these extensions, each named once. */
async function reached(kind: string, extensions: Record<string, string>): Promise<string[]> {
  const event = { specversion: '1.0', type: 'io.kyma-project.lifecycle.resync.due', kind, ...extensions };
  const triggers = await loadTriggers(SHIPPED);
  const names = triggers.filter((t) => matchesAll(t.filters, event)).map((t) => t.subscriber.ref?.name ?? '');
  return [...new Set(names)].sort();
}

const LANES = [{}, { lifecyclelane: 'background' }, { lifecyclelane: 'user' }];

describe("a resync.due's functions", () => {
  it("takes a Kyma's drift check to resolve-template and aggregate-status, not to purge, in every lane", async () => {
    for (const lane of LANES)
      expect(await reached('Kyma', { ...lane, resyncreason: 'drift' }), JSON.stringify(lane)).toEqual([
        'aggregate-status',
        'resolve-template',
      ]);
  });

  it('takes every other Kyma resync.due to purge as well: pending, a release tick, none (a full check)', async () => {
    for (const lane of LANES)
      for (const reason of [{ resyncreason: 'pending' }, { resyncreason: 'release' }, {}])
        expect(await reached('Kyma', { ...lane, ...reason }), JSON.stringify({ lane, reason })).toEqual([
          'aggregate-status',
          'purge',
          'resolve-template',
        ]);
  });

  it("takes a Manifest's drift check and its other resyncs to apply-remote alone", async () => {
    for (const lane of LANES)
      for (const reason of [{ resyncreason: 'drift' }, { resyncreason: 'pending' }, {}])
        expect(await reached('Manifest', { ...lane, ...reason })).toEqual(['apply-remote']);
  });
});
