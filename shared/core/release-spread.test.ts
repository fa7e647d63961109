import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import type { Kyma } from './kyma.ts';
import { awaitedReleases, channelVersionsOf, pickReleases, releaseNeed } from './release-spread.ts';

const versions = channelVersionsOf([
  {
    spec: {
      moduleName: 'alpha',
      ocmComponentName: 'c/alpha',
      channels: [
        { channel: 'regular', version: '1.1.0' },
        { channel: 'fast', version: '1.2.0' },
      ],
    },
  },
  { spec: { moduleName: 'beta', ocmComponentName: 'c/beta', channels: [{ channel: 'regular', version: '2.0.0' }] } },
]);

const kyma = (
  modules: { name: string; channel?: string; seen?: string; notAllowed?: boolean }[],
  labels: Record<string, string> = {},
): Kyma =>
  aKyma({
    name: 'k',
    labels,
    modules: modules.map((m) => m.name),
    status: {
      modules: modules.map((m) => ({
        name: m.name,
        ...(m.channel ? { channel: m.channel } : {}),
        ...(m.seen
          ? {
              resolution: {
                state: 'Resolved' as const,
                version: m.seen,
                ...(m.notAllowed ? { notAllowed: true } : {}),
              },
            }
          : {}),
      })),
    },
  });

describe('awaitedReleases', () => {
  it('names the modules whose channel moved since their last resolution', () => {
    expect(
      awaitedReleases(
        kyma([
          { name: 'alpha', channel: 'regular', seen: '1.0.0' },
          { name: 'beta', channel: 'regular', seen: '2.0.0' },
        ]),
        versions,
      ),
    ).toEqual(['alpha']);
  });
  it("follows the entry's own channel, else the Kyma's", () => {
    expect(awaitedReleases(kyma([{ name: 'alpha', channel: 'fast', seen: '1.1.0' }]), versions)).toEqual(['alpha']);
    expect(awaitedReleases(kyma([{ name: 'alpha', seen: '1.1.0' }]), versions)).toEqual([]);
  });
  it('follows the channel the resolution followed where the entry keeps the installed one (a refused downgrade)', () => {
    const refused = (followed: string, seen: string) => ({
      ...kyma([]),
      status: {
        modules: [
          {
            name: 'alpha',
            channel: 'fast',
            resolution: { state: 'Warning' as const, version: seen, channel: followed },
          },
        ],
      },
    });
    expect(awaitedReleases(refused('regular', '1.1.0'), versions)).toEqual([]);
    expect(awaitedReleases(refused('regular', '1.0.0'), versions)).toEqual(['alpha']);
  });
  it('ignores entries never resolved, refused for this Kyma, or of modules without a release meta or channel', () => {
    expect(
      awaitedReleases(
        kyma([
          { name: 'alpha' },
          { name: 'beta', seen: '1.0.0', notAllowed: true },
          { name: 'gamma', seen: '0.1.0' },
          { name: 'alpha', channel: 'none', seen: '1.0.0' },
        ]),
        versions,
      ),
    ).toEqual([]);
  });
});

describe('releaseNeed', () => {
  const alpha = (kymaSelector?: { matchLabels: Record<string, string> }) => ({
    spec: {
      moduleName: 'alpha',
      ocmComponentName: 'c/alpha',
      channels: [{ channel: 'regular', version: '1.1.0' }],
      ...(kymaSelector ? { kymaSelector } : {}),
    },
  });
  it('spreads a moved channel, resolves at once what has no resolved version, leaves the rest alone', () => {
    expect(releaseNeed(kyma([{ name: 'alpha', channel: 'regular', seen: '1.0.0' }]), 'alpha', alpha())).toBe('release');
    expect(releaseNeed(kyma([{ name: 'alpha', channel: 'regular' }]), 'alpha', alpha())).toBe('resolve');
    expect(releaseNeed(kyma([]), 'alpha', alpha())).toBe('resolve');
    expect(releaseNeed(kyma([{ name: 'alpha', channel: 'regular', seen: '1.1.0' }]), 'alpha', alpha())).toBe('none');
  });
  it('resolves at once where the kymaSelector now refuses a module the last resolution allowed, or allowed what it refused', () => {
    const selector = { matchLabels: { 'kyma-project.io/global-account-id': 'ga-1' } };
    expect(
      releaseNeed(
        kyma([{ name: 'alpha', channel: 'regular', seen: '1.1.0' }], { 'kyma-project.io/global-account-id': 'ga-2' }),
        'alpha',
        alpha(selector),
        ['alpha'],
      ),
    ).toBe('resolve');
    expect(
      releaseNeed(
        kyma([{ name: 'alpha', channel: 'regular', seen: '1.1.0' }], { 'kyma-project.io/global-account-id': 'ga-1' }),
        'alpha',
        alpha(selector),
        ['alpha'],
      ),
    ).toBe('none');
    expect(
      releaseNeed(
        kyma([{ name: 'alpha', channel: 'regular', seen: '1.1.0' }], { 'kyma-project.io/global-account-id': 'ga-1' }),
        'alpha',
        alpha(selector),
        [],
      ),
    ).toBe('resolve');
    expect(
      releaseNeed(kyma([{ name: 'alpha', channel: 'regular', seen: '1.1.0', notAllowed: true }]), 'alpha', alpha()),
    ).toBe('resolve');
  });
});

describe('pickReleases', () => {
  const fleet = Array.from({ length: 40 }, (_, i) => ({ name: `kyma-${i}`, runtime: `server-${i % 4}` }));

  it('takes everything without a budget', () => {
    expect(pickReleases(fleet, { kymasPerMinute: 0, kymasPerRuntimePerMinute: 0 })).toEqual({ now: fleet, later: 0 });
  });
  it('keeps to the fleet-wide and the per-runtime budget', () => {
    const { now, later } = pickReleases(fleet, { kymasPerMinute: 10, kymasPerRuntimePerMinute: 2 });
    expect(now).toHaveLength(8);
    expect(later).toBe(32);
    for (let s = 0; s < 4; s++) expect(now.filter((c) => c.runtime === `server-${s}`)).toHaveLength(2);
    expect(pickReleases(fleet, { kymasPerMinute: 5, kymasPerRuntimePerMinute: 0 }).now).toHaveLength(5);
  });
  it('picks the same Kymas whatever the input order (a Kyma picked and not yet worked on is picked again), spread over the names', () => {
    const budget = { kymasPerMinute: 10, kymasPerRuntimePerMinute: 0 };
    const once = pickReleases(fleet, budget).now.map((c) => c.name);
    expect(pickReleases([...fleet].reverse(), budget).now.map((c) => c.name)).toEqual(once);
    expect(once).not.toEqual(fleet.slice(0, 10).map((c) => c.name));
  });
  it('moves on to the next Kymas once the first ones no longer wait', () => {
    const budget = { kymasPerMinute: 10, kymasPerRuntimePerMinute: 0 };
    const first = new Set(pickReleases(fleet, budget).now.map((c) => c.name));
    const second = pickReleases(
      fleet.filter((c) => !first.has(c.name)),
      budget,
    ).now;
    expect(second).toHaveLength(10);
    expect(second.some((c) => first.has(c.name))).toBe(false);
  });
});
