import { describe, expect, it } from 'vitest';
import { InvalidEventError } from './errors.ts';
import { LANE, LANE_BACKGROUND, MODULES_DUE, RESYNC_DUE, RESYNC_REASON, isDriftCheck } from './events.ts';
import {
  DUE_MANIFESTS,
  MAX_DUE_MANIFESTS,
  dueManifestKey,
  dueManifestsOf,
  manifestCheckOf,
  modulesDue,
} from './modules-due.ts';

const KYMA = { kind: 'Kyma', apiVersion: 'operator.kyma-project.io/v1beta2', namespace: 'kcp-system', name: 'k1' };
const DRIFT = { [LANE]: LANE_BACKGROUND, [RESYNC_REASON]: 'drift' };

describe('modules.due (ADR 94)', () => {
  it("names a Kyma's Manifests in one event about the Kyma, with the lane and reason given", () => {
    const [event, ...more] = modulesDue('resync', KYMA, ['k1-a', 'k1-b'], undefined, DRIFT);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ type: MODULES_DUE, kind: 'Kyma', name: 'k1', namespace: 'kcp-system', ...DRIFT });
    expect(event?.[DUE_MANIFESTS]).toBe('k1-a,k1-b');
    expect(isDriftCheck(event as never), 'counted as a drift check').toBe(true);
    expect(dueManifestsOf(event as never)).toEqual(['k1-a', 'k1-b']);
  });

  it('splits more than MAX_DUE_MANIFESTS into events of subjects of their own, losing none', () => {
    const names = Array.from({ length: MAX_DUE_MANIFESTS * 2 + 3 }, (_, i) => `k1-m${i}`);
    const events = modulesDue('resync', KYMA, names, undefined, DRIFT);
    expect(events).toHaveLength(3);
    expect(new Set(events.map((e) => e.subject)).size).toBe(3);
    expect(events.flatMap((e) => dueManifestsOf(e as never))).toEqual(names);
  });

  it('refuses an event that names none, too many or a malformed Manifest', () => {
    const [event] = modulesDue('resync', KYMA, ['k1-a'], undefined, DRIFT);
    const said = (names: string | undefined) => () => dueManifestsOf({ ...event, [DUE_MANIFESTS]: names } as never);
    expect(said(undefined)).toThrow(InvalidEventError);
    expect(said('')).toThrow(InvalidEventError);
    expect(said('k1-a,,k1-b')).toThrow(InvalidEventError);
    expect(said('k1-a,../etc')).toThrow(InvalidEventError);
    expect(said(Array.from({ length: MAX_DUE_MANIFESTS + 1 }, (_, i) => `m${i}`).join(','))).toThrow(/1 to 100/);
  });

  it("stands for each Manifest's resync.due: a drift check of it, caused by the modules.due, in its lane", () => {
    const [event] = modulesDue('resync', KYMA, ['k1-a'], undefined, DRIFT);
    const check = manifestCheckOf('apply-remote', event as never, dueManifestKey(KYMA, 'k1-a'));
    expect(check).toMatchObject({
      type: RESYNC_DUE,
      kind: 'Manifest',
      namespace: 'kcp-system',
      name: 'k1-a',
      causationid: event?.id,
      ...DRIFT,
    });
    expect(check[DUE_MANIFESTS]).toBeUndefined();
    expect(isDriftCheck(check as never)).toBe(true);
  });
});
