// Spread releases (ADR 30): a ModuleReleaseMeta bump reaches the fleet within the release budget — here 3 Kymas per
// minute fleet-wide and 2 per runtime API server — and the Kymas left out are upgraded by the next resync tick, with
// nothing lost in between (they stay Ready on the old version). Five Kymas on two runtime API servers (three on the
// first, two on the second, each in a runtime namespace of its own, ADR 13). The release order (a hash of the names)
// puts the first runtime's three first, so the fleet budget alone would pick all three there: only the per-runtime cap
// keeps the third waiting and lets one of the second runtime go instead.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { RUNTIME_NAMESPACE_ANNOTATION } from '../../shared/core/runtime-scope.ts';
import { fnv1Hash32 } from '../../shared/core/names.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  justAfterTheMinute,
  kymaInState,
  resyncTicks,
  startWorld,
  type World,
} from './world.ts';

const MODULE = 'uniform';
/** Kyma → the runtime API server (index into the world's runtimes) it lives on. */
const KYMAS: Record<string, number> = {
  'spread-a1': 0,
  'spread-a2': 0,
  'spread-a3': 0,
  'spread-b1': 1,
  'spread-b2': 1,
};
let world: World;

beforeAll(async () => {
  world = await startWorld({
    LIFECYCLE_RELEASE_KYMAS_PER_MINUTE: '3',
    LIFECYCLE_RELEASE_KYMAS_PER_RUNTIME_PER_MINUTE: '2',
  });
  await publishModule(world, MODULE, ['1.0.0']);
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.1.0', namespace: KCP_NAMESPACE });
  for (const [kyma, runtime] of Object.entries(KYMAS)) {
    await world.kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: kyma,
          namespace: KCP_NAMESPACE,
          labels: { [LABEL.kymaName]: kyma },
          annotations: { [RUNTIME_NAMESPACE_ANNOTATION]: kyma },
        },
        data: { config: Buffer.from(world.runtimeKubeconfigs[runtime] ?? '').toString('base64') },
      },
      'e2e-user',
    );
  }
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  for (const kyma of Object.keys(KYMAS))
    await world?.kcp
      .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: kyma })
      .catch(() => undefined);
  await world?.runner.stop();
});

const versionOf = (kyma: Kyma | undefined) => kyma?.status?.modules?.find((m) => m.name === MODULE)?.version;
const readyAt = (version: string) => (k: Kyma) => k.status?.modules?.[0]?.state === 'Ready' && versionOf(k) === version;

/** Kyma → the version its module runs, for every Kyma of the test. */
async function versions(): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const kyma of Object.keys(KYMAS)) out[kyma] = versionOf(await getKyma(world, kyma));
  return out;
}

describe('a release reaches the fleet within the release budget', () => {
  it('installs all five Kymas at 1.0.0', async () => {
    for (const kyma of Object.keys(KYMAS))
      await applyKyma(world, kyma, { channel: 'regular', modules: [{ name: MODULE }] });
    for (const kyma of Object.keys(KYMAS)) await kymaInState(world, kyma, 'Ready', readyAt('1.0.0'));
  });

  it('the release order alone would pick the three Kymas of the first runtime (so the per-runtime cap decides)', () => {
    // The order pickReleases follows (shared/core/release-spread.ts), computed here on its own.
    const order = Object.keys(KYMAS).sort((a, b) => fnv1Hash32(`release/${a}`) - fnv1Hash32(`release/${b}`));
    expect(
      order.slice(0, 3).map((k) => KYMAS[k]),
      order.join(' '),
    ).toEqual([0, 0, 0]);
  });

  it('a channel bump upgrades three Kymas at once, at most two per runtime API server; the other two stay Ready on 1.0.0', async () => {
    await world.runner.broker.idle();
    await justAfterTheMinute();
    const ticksBefore = resyncTicks(world);
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.1.0' }]);
    await eventually(
      'three Kymas Ready at 1.1.0',
      async () => {
        const upgraded = Object.values(await versions()).filter((v) => v === '1.1.0').length;
        return upgraded >= 3;
      },
      40_000,
    );
    await world.runner.broker.idle();
    await sleep(2_000);
    await world.runner.broker.idle();
    expect(resyncTicks(world), 'no resync tick between the bump and this check').toBe(ticksBefore);
    const now = await versions();
    const upgraded = Object.keys(now).filter((k) => now[k] === '1.1.0');
    expect(upgraded, JSON.stringify(now)).toHaveLength(3);
    // Two on the first runtime (its cap), one on the second: without the cap, all three would be on the first.
    expect(
      [0, 1].map((runtime) => upgraded.filter((k) => KYMAS[k] === runtime).length),
      `upgraded per runtime: ${upgraded.join(' ')}`,
    ).toEqual([2, 1]);
    for (const kyma of Object.keys(KYMAS).filter((k) => !upgraded.includes(k))) {
      const waiting = await getKyma(world, kyma);
      expect(
        [waiting?.status?.state, versionOf(waiting)],
        `${kyma} waits for the budget, Ready on the old version`,
      ).toEqual(['Ready', '1.0.0']);
    }
  }, 120_000);

  it('the next resync tick brings the two left out to 1.1.0', async () => {
    await world.runner.resync();
    for (const kyma of Object.keys(KYMAS)) await kymaInState(world, kyma, 'Ready', readyAt('1.1.0'));
    const manifests = await world.kcp.list<{ spec?: { version?: string }; metadata: { name: string } }>(
      API_VERSION,
      'Manifest',
      { namespace: KCP_NAMESPACE, labelSelector: `${LABEL.moduleName}=${MODULE}` },
    );
    expect(manifests.items.map((m) => m.spec?.version)).toEqual(Object.keys(KYMAS).map(() => '1.1.0'));
  });
});
