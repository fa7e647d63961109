import { describe, expect, it } from 'vitest';
import { keyText, type ObjectKey } from '../../shared/host/events.ts';
import { LANE, LANE_BACKGROUND, RESYNC_DUE, RESYNC_REASON } from '../../shared/host/events.ts';
import { createLogger } from '../../shared/host/logger.ts';
import type { Invocation } from '../../shared/host/invoke.ts';
import { modulesDue } from '../../shared/host/modules-due.ts';
import { checkModules } from './modules-due.ts';

const KYMA = { kind: 'Kyma', apiVersion: 'operator.kyma-project.io/v1beta2', namespace: 'kcp-system', name: 'k1' };
const log = createLogger('test', 'silent');
const due = (names: string[]): Invocation => {
  const [event] = modulesDue('resync', KYMA, names, undefined, { [LANE]: LANE_BACKGROUND, [RESYNC_REASON]: 'drift' });
  return { event: event as never, key: KYMA, log };
};

describe("a Kyma's modules due in one call (ADR 94)", () => {
  it("checks each Manifest as its own resync.due would, one after the other, each in its Manifest's turn", async () => {
    const seen: string[] = [];
    const result = await checkModules(due(['k1-a', 'k1-b', 'k1-c']), {
      fn: 'apply-remote',
      check: async ({ event, key }) =>
        seen.push(`check ${event.type === RESYNC_DUE ? 'resync.due' : event.type} ${keyText(key)}`),
      inTurn: async (key: ObjectKey, work) => {
        seen.push(`turn ${keyText(key)}`);
        return work();
      },
      sink: async () => {
        throw new Error('nothing to send');
      },
    });
    expect(seen).toEqual(
      ['k1-a', 'k1-b', 'k1-c'].flatMap((m) => [
        `turn Manifest kcp-system/${m}`,
        `check resync.due Manifest kcp-system/${m}`,
      ]),
    );
    expect(result).toEqual({ checked: 3, resent: 0 });
  });

  it('goes on past a check that fails and sends that Manifest its own resync.due, for the broker to retry', async () => {
    const sent: { type: string; name: unknown; reason: unknown }[] = [];
    const checked: string[] = [];
    const result = await checkModules(due(['k1-a', 'k1-b', 'k1-c']), {
      fn: 'apply-remote',
      check: async ({ key }) => {
        checked.push(key.name);
        if (key.name === 'k1-b') throw new Error('module not ready yet');
      },
      inTurn: (_key, work) => work(),
      sink: async (event) => void sent.push({ type: event.type, name: event.name, reason: event[RESYNC_REASON] }),
    });
    expect(checked).toEqual(['k1-a', 'k1-b', 'k1-c']);
    expect(sent).toEqual([{ type: RESYNC_DUE, name: 'k1-b', reason: 'drift' }]);
    expect(result).toEqual({ checked: 3, resent: 1 });
  });

  it('fails the call when that resync.due cannot be sent (the broker then retries all), and refuses a Manifest key', async () => {
    const on = {
      fn: 'apply-remote',
      check: async () => {
        throw new Error('unreachable');
      },
      inTurn: (_key: ObjectKey, work: () => Promise<unknown>) => work(),
      sink: async () => {
        throw new Error('broker ingress down');
      },
    };
    await expect(checkModules(due(['k1-a']), on)).rejects.toThrow('broker ingress down');
    await expect(checkModules({ ...due(['k1-a']), key: { ...KYMA, kind: 'Manifest' } }, on)).rejects.toThrow(
      /about a Kyma/,
    );
  });
});
