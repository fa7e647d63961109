// Modules the lifecycle manager is told to leave alone: unmanaged, skip-reconciliation on a Manifest or a Kyma, foreign
// finalizers, orphaned Manifests. Removal blocked by user CRs: removal.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleStatus } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { deploymentOf, publishModule, installed, removeAndCleanUp } from './removal-helpers.ts';
import { checkedAgain, kymaKey, manifestKey } from './handled.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  getKyma,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
const entry = async (kyma: string, module: string): Promise<ModuleStatus | undefined> =>
  (await getKyma(world, kyma))?.status?.modules?.find((m) => m.name === module);
const onlyManifest = async (kyma: string): Promise<Manifest | undefined> => (await manifestsOf(world, kyma))[0];

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_PURGE_GRACE_SECONDS: '8' });
  await publishModule(world, 'alpha', ['1.0.0']);
  await publishModule(world, 'delta', ['1.0.0']);
  await publishModule(world, 'echo', ['1.0.0']);
});

afterEach(async () => {
  await deleteLeftoverKymas(world); // a failed test must not leave a second Kyma on a shared runtime
});

afterAll(async () => {
  await stopWorld(world);
});

describe('unmanaged modules', () => {
  it('leaves resources in place without the managed-by label, deletes the Manifest, and manages again on request', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-d', 1, 'delta');
    await applyKyma(world, 'rm-d', { channel: 'regular', modules: [{ name: 'delta', managed: false }] });
    await eventually('Manifest gone', async () => (await manifestsOf(world, 'rm-d')).length === 0);
    const kyma = await kymaInState(world, 'rm-d', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Unmanaged');
    expect(kyma.status?.modules).toMatchObject([{ name: 'delta', state: 'Unmanaged' }]);
    expect(kyma.status?.modules?.[0]).not.toHaveProperty('template');
    expect(kyma.status?.modules?.[0]).not.toHaveProperty('manifest');
    const kept = await deploymentOf(runtime, 'delta');
    expect(kept).toBeDefined();
    expect(kept?.metadata?.labels?.['operator.kyma-project.io/managed-by']).toBeUndefined();

    await applyKyma(world, 'rm-d', { channel: 'regular', modules: [{ name: 'delta' }] });
    await kymaInState(world, 'rm-d', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect((await deploymentOf(runtime, 'delta'))?.metadata?.labels?.['operator.kyma-project.io/managed-by']).toBe(
      'kyma',
    );

    await applyKyma(world, 'rm-d', { channel: 'regular', modules: [{ name: 'delta', managed: false }] });
    await eventually(
      'unmanaged again',
      async () =>
        (await entry('rm-d', 'delta'))?.state === 'Unmanaged' && (await manifestsOf(world, 'rm-d')).length === 0,
    );
    await applyKyma(world, 'rm-d', { channel: 'regular', modules: [] });
    await kymaInState(world, 'rm-d', 'Ready', (k) => (k.status?.modules ?? []).length === 0);
    expect(await deploymentOf(runtime, 'delta')).toBeDefined();
    await removeAndCleanUp(world, 'rm-d');
    expect(await deploymentOf(runtime, 'delta')).toBeDefined();
  });
});

describe('skip-reconciliation and foreign finalizers on a Manifest', () => {
  it('freezes a labelled Manifest (a deleted Deployment stays gone), repairs drift once the label is removed, and names foreign finalizers', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-e', 0, 'echo');
    const manifest = await onlyManifest('rm-e');
    const ref = {
      apiVersion: API_VERSION,
      kind: 'Manifest',
      namespace: KCP_NAMESPACE,
      name: manifest?.metadata.name ?? '',
    };
    expect(manifest?.metadata.labels?.['operator.kyma-project.io/channel']).toBe('regular');
    await world.kcp.mergePatch(ref, {
      metadata: { labels: { 'operator.kyma-project.io/skip-reconciliation': 'true' } },
    });
    await world.runner.broker.idle(); // no apply that read the Manifest before the label is still under way
    await runtime.delete({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: 'echo-manager' });
    // A full check of the Manifest (it would restore the Deployment) handled: apply-remote left it alone.
    expect(await checkedAgain(world, manifestKey(ref.name))).toEqual([
      { fn: 'apply-remote', status: 204, msg: 'done' },
    ]);
    expect(await deploymentOf(runtime, 'echo')).toBeUndefined();
    await world.kcp.mergePatch(ref, { metadata: { labels: { 'operator.kyma-project.io/skip-reconciliation': null } } });
    await eventually('Deployment restored', async () => Boolean(await deploymentOf(runtime, 'echo')));
    await kymaInState(world, 'rm-e', 'Ready');

    const current = await world.kcp.get<Manifest>(ref);
    await world.kcp.mergePatch(ref, {
      metadata: { finalizers: [...(current?.metadata.finalizers ?? []), 'test.kyma-project.io/foreign'] },
    });
    await applyKyma(world, 'rm-e', { channel: 'regular', modules: [] });
    await eventually(
      'waiting for the foreign finalizer',
      async () =>
        (await world.kcp.get<Manifest>(ref))?.status?.lastOperation?.operation ===
        'waiting as other finalizers are present: [test.kyma-project.io/foreign]',
    );
    expect(await deploymentOf(runtime, 'echo')).toBeUndefined();
    await world.kcp.mergePatch(ref, { metadata: { finalizers: null } });
    await eventually('Manifest gone', async () => (await world.kcp.get(ref)) === undefined);
    await removeAndCleanUp(world, 'rm-e');
  });
});

describe('skip-reconciliation on a Kyma, and orphaned Manifests', () => {
  it('freezes a labelled Kyma (a new module is not installed) but still deletes it', async () => {
    const [runtime] = world.runtimes;
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'rm-f', 0, 'alpha');
    await applyKyma(
      world,
      'rm-f',
      { channel: 'regular', modules: [{ name: 'alpha' }, { name: 'echo' }] },
      { 'operator.kyma-project.io/skip-reconciliation': 'true' },
    );
    // A full check of the Kyma handled (resolve-template would have replied and render-manifest created echo's Manifest).
    expect((await checkedAgain(world, kymaKey('rm-f'))).find((c) => c.fn === 'resolve-template')).toEqual({
      fn: 'resolve-template',
      status: 204,
      msg: 'done',
    });
    expect(
      (await manifestsOf(world, 'rm-f')).map((m) => m.metadata.labels?.['operator.kyma-project.io/module-name']),
    ).toEqual(['alpha']);
    await removeAndCleanUp(world, 'rm-f');
    expect(await deploymentOf(runtime, 'alpha')).toBeUndefined();
  });

  it('reports a Manifest whose Kyma does not exist as orphaned', async () => {
    await connectRuntime(world, 'no-such-kyma', 0);
    const name = 'no-such-kyma-alpha-1';
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Manifest',
        metadata: {
          name,
          namespace: KCP_NAMESPACE,
          labels: {
            'operator.kyma-project.io/kyma-name': 'no-such-kyma',
            'operator.kyma-project.io/module-name': 'alpha',
          },
        },
        spec: {
          install: {
            name: 'raw-manifest',
            source: { repo: 'x', name: 'kyma-project.io/module/alpha', ref: 'sha256:00', type: 'oci-dir' },
          },
          version: '1.0.0',
        },
      },
      'e2e-user',
    );
    const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name };
    const orphan = await eventually('orphan reported', async () => {
      const m = await world.kcp.get<Manifest>(ref);
      return m?.status?.state === 'Error' ? m : undefined;
    });
    expect(orphan.status?.lastOperation?.operation).toBe(
      'orphaned manifest detected: Kyma no-such-kyma does not exist',
    );
    await world.kcp.delete(ref);
    await eventually('orphan deleted', async () => (await world.kcp.get(ref)) === undefined);
  });
});
