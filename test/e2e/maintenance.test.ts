// Maintenance windows (upstream §2.12, §8.2 scenarios 26, 27, 28) through the whole chain on real clusters.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { deploymentOf } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
let policyPath: string;
const hhmmss = (date: Date) => `${date.toISOString().slice(11, 19)}+00:00`;
const hours = (h: number) => new Date(Date.now() + h * 3_600_000);

/** The default window of every runtime: one that closed an hour ago, or one that is open now. */
const writePolicy = (open: boolean) =>
  writeFile(
    policyPath,
    JSON.stringify({
      rules: [{ match: { plan: 'never-matches' }, windows: [] }],
      default: open
        ? { begin: hhmmss(hours(-1)), end: hhmmss(hours(1)) }
        : { begin: hhmmss(hours(-3)), end: hhmmss(hours(-2)) },
    }),
  );

const moduleOf = (k: Kyma) => k.status?.modules?.find((m) => m.name === 'nova');

beforeAll(async () => {
  policyPath = join(await mkdtemp(join(tmpdir(), 'maintenance-')), 'policy.json');
  await writePolicy(false);
  world = await startWorld({ LIFECYCLE_MAINTENANCE_POLICY: policyPath, LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' });
  await publishSampleModule(world.registry, world.kcp, { name: 'nova', version: '1.0.0', namespace: KCP_NAMESPACE });
  for (const version of ['2.0.0', '3.0.0'])
    await publishSampleModule(world.registry, world.kcp, {
      name: 'nova',
      version,
      namespace: KCP_NAMESPACE,
      requiresDowntime: true,
    });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'nova', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
    { channel: 'experimental', version: '3.0.0' },
  ]);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('maintenance windows', () => {
  it('holds an upgrade that requires downtime until the window opens, keeping the installed version Ready', async () => {
    await connectRuntime(world, 'mw-a', 0);
    await applyKyma(world, 'mw-a', { channel: 'regular', modules: [{ name: 'nova' }] });
    const installed = await kymaInState(world, 'mw-a', 'Ready', (k) => moduleOf(k)?.version === '1.0.0');
    expect(moduleOf(installed)?.maintenance ?? false).toBe(false);

    await applyKyma(world, 'mw-a', { channel: 'regular', modules: [{ name: 'nova', channel: 'fast' }] });
    const waiting = await kymaInState(world, 'mw-a', 'Ready', (k) => moduleOf(k)?.maintenance === true);
    expect(moduleOf(waiting)).toMatchObject({
      state: 'Ready',
      version: '1.0.0',
      message: 'waiting for next maintenance window to update module version',
    });
    expect((await manifestsOf(world, 'mw-a'))[0]?.spec?.version).toBe('1.0.0');
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    expect((await deploymentOf(runtime, 'nova'))?.spec?.template?.spec?.containers?.[0]?.image).toMatch(
      /nova-manager:1\.0\.0$/,
    );

    await writePolicy(true);
    await world.runner.resync();
    const upgraded = await kymaInState(world, 'mw-a', 'Ready', (k) => moduleOf(k)?.version === '2.0.0');
    expect(moduleOf(upgraded)?.maintenance ?? false).toBe(false);
    expect(moduleOf(upgraded)?.channel).toBe('fast');
    expect((await manifestsOf(world, 'mw-a'))[0]?.spec?.version).toBe('2.0.0');
    expect((await deploymentOf(runtime, 'nova'))?.spec?.template?.spec?.containers?.[0]?.image).toMatch(
      /nova-manager:2\.0\.0$/,
    );
    await writePolicy(false);
    await deleteKyma(world, 'mw-a');
    await kymaGone(world, 'mw-a');
  });

  it('never holds a first install, and skipMaintenanceWindows upgrades at once', async () => {
    await writePolicy(false);
    await connectRuntime(world, 'mw-b', 1);
    await applyKyma(world, 'mw-b', { channel: 'regular', modules: [{ name: 'nova', channel: 'fast' }] });
    const first = await kymaInState(world, 'mw-b', 'Ready', (k) => moduleOf(k)?.version === '2.0.0');
    expect(moduleOf(first)?.maintenance ?? false).toBe(false);

    await applyKyma(world, 'mw-b', {
      channel: 'regular',
      skipMaintenanceWindows: true,
      modules: [{ name: 'nova', channel: 'experimental' }],
    });
    const skipped = await kymaInState(world, 'mw-b', 'Ready', (k) => moduleOf(k)?.version === '3.0.0');
    expect(moduleOf(skipped)?.maintenance ?? false).toBe(false);
    await deleteKyma(world, 'mw-b');
    await kymaGone(world, 'mw-b');
  });

  it('a broken policy: an upgrade that requires downtime is Error naming the policy, the installed version stays, and the read gauge says 0 until it is fixed', async () => {
    const gauge = async () => {
      const text = await (await fetch(`${world.runner.functions.get('resolve-template') ?? ''}/metrics`)).text();
      return /^lifecycle_mgr_maintenance_window_config_read_success (\d)$/m.exec(text)?.[1];
    };
    await writePolicy(false);
    await connectRuntime(world, 'mw-c', 0);
    await applyKyma(world, 'mw-c', { channel: 'regular', modules: [{ name: 'nova' }] });
    await kymaInState(world, 'mw-c', 'Ready', (k) => moduleOf(k)?.version === '1.0.0');
    expect(await gauge()).toBe('1');

    await writeFile(policyPath, '{"rules": [{"match": '); // cut off mid-way
    await applyKyma(world, 'mw-c', { channel: 'regular', modules: [{ name: 'nova', channel: 'fast' }] });
    const broken = await kymaInState(world, 'mw-c', 'Error', (k) => moduleOf(k)?.state === 'Error');
    expect(moduleOf(broken)?.message).toContain(
      `failed to determine if maintenance window is active: maintenance policy ${policyPath}`,
    );
    expect((await manifestsOf(world, 'mw-c'))[0]?.spec?.version).toBe('1.0.0');
    expect(await gauge()).toBe('0');

    await writePolicy(true);
    await world.runner.resync();
    await kymaInState(world, 'mw-c', 'Ready', (k) => moduleOf(k)?.version === '2.0.0');
    expect(await gauge()).toBe('1');
    await writePolicy(false);
    await deleteKyma(world, 'mw-c');
    await kymaGone(world, 'mw-c');
  });
});
