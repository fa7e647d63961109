import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { refOfSynced } from '../../shared/render/render.ts';
import { crRef, dropFinalizers, installed, moduleCrOn, publishModule, userCr } from './removal-helpers.ts';
import {
  applyKyma,
  deleteLeftoverKymas,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

// ADR 81: what an install applied but never recorded in the Manifest's status (the call ended between its apply and its
// status write) goes with the module's removal; a default CR refused while its CRD is being deleted waits with a
// status that says so and records what was applied — the two ways a toggled module left objects behind before.
let world: World;
const HOLD = 'test.kyma-project.io/hold';
const onlyManifest = async (kyma: string): Promise<Manifest> => {
  const [manifest] = await manifestsOf(world, kyma);
  if (!manifest) throw new Error(`no Manifest for Kyma ${kyma}`);
  return manifest;
};
const manifestRef = (m: Manifest) => ({
  apiVersion: API_VERSION,
  kind: 'Manifest',
  namespace: KCP_NAMESPACE,
  name: m.metadata.name,
});
const onRuntime = (runtime: KubeClient, r: SyncedResource) => runtime.get(refOfSynced(r)).catch(() => undefined);
const moduleObjects = (m: Manifest) =>
  (m.status?.synced ?? []).filter((r) => !(r.kind === 'Namespace' && r.name === 'kyma-system'));

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'oscar', ['1.0.0']);
  await publishModule(world, 'papa', ['1.0.0']);
});

afterEach(async () => {
  await deleteLeftoverKymas(world);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('objects applied but not recorded (ADR 81)', () => {
  it("a module's removal removes what its layer renders and names the Manifest as holder, recorded or not", async () => {
    const runtime = world.runtimes[0];
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'un-a', 0, 'oscar');
    const manifest = await onlyManifest('un-a');
    const objects = moduleObjects(manifest);
    expect(objects.map((r) => r.kind)).toEqual(expect.arrayContaining(['CustomResourceDefinition', 'Deployment']));
    // What a call that died after applying leaves: the objects on the runtime, a status that does not name them. The
    // label keeps apply-remote from writing the status again until the Manifest is being deleted.
    await world.kcp.mergePatch(manifestRef(manifest), { metadata: { labels: { [LABEL.skipReconciliation]: 'true' } } });
    await world.kcp.mergePatch(manifestRef(manifest), { status: { synced: [] } }, 'status');
    await applyKyma(world, 'un-a', { channel: 'regular', modules: [] });
    await eventually('the Manifest being deleted', async () =>
      (await world.kcp.get<Manifest>(manifestRef(manifest)))?.metadata.deletionTimestamp ? true : undefined,
    );
    expect((await world.kcp.get<Manifest>(manifestRef(manifest)))?.status?.synced ?? []).toEqual([]);
    await world.kcp.mergePatch(manifestRef(manifest), { metadata: { labels: { [LABEL.skipReconciliation]: null } } });
    await eventually('the Manifest gone', async () => (await manifestsOf(world, 'un-a')).length === 0);
    for (const r of objects) expect(await onRuntime(runtime, r), `${r.kind} ${r.name} removed`).toBeUndefined();
    await kymaInState(world, 'un-a', 'Ready', (k) => (k.status?.modules ?? []).length === 0);
  });

  it('a default CR refused while its CRD is being deleted waits, says why, and is created once the CRD is back', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await installed(world, 'un-b', 1, 'papa');
    const first = await onlyManifest('un-b');
    const crdEntry = moduleObjects(first).find((r) => r.kind === 'CustomResourceDefinition');
    if (!crdEntry) throw new Error('module papa ships no CRD');
    const crd = await runtime.get<{ metadata?: object; spec: object }>(refOfSynced(crdEntry));
    await applyKyma(world, 'un-b', { channel: 'regular', modules: [] });
    await eventually('module papa removed', async () => !(await onRuntime(runtime, crdEntry)));

    // A CRD deleted while a CR of it holds a finalizer stays terminating: the state an earlier removal leaves.
    await runtime.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: crdEntry.name },
      spec: crd?.spec,
    });
    await eventually('the CRD served', async () =>
      runtime.list(`${crdEntry.name.split('.').slice(1).join('.')}/v1alpha1`, 'Papa').then(
        () => true,
        () => undefined,
      ),
    );
    await userCr(runtime, 'papa', 'held', 'kyma-system', [HOLD]);
    await runtime.delete(refOfSynced(crdEntry));

    await applyKyma(world, 'un-b', { channel: 'regular', modules: [{ name: 'papa' }] });
    const waiting = await eventually('the Manifest waiting for the CRD', async () => {
      const [m] = await manifestsOf(world, 'un-b');
      return m?.status?.lastOperation?.operation.includes('is being deleted') ? m : undefined;
    });
    expect(waiting.status?.state).toBe('Processing');
    expect(waiting.status?.lastOperation?.operation).toBe(
      `the CRD of Papa is being deleted: default CR Papa kyma-system/${waiting.metadata.name} is created once the CRD is gone and applied again`,
    );
    expect(waiting.status?.synced?.map((r) => r.kind)).toEqual(expect.arrayContaining(['Deployment']));

    await dropFinalizers(runtime, crRef('papa', 'held', 'kyma-system'));
    await kymaInState(world, 'un-b', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(await moduleCrOn(runtime, crRef('papa', waiting.metadata.name, 'kyma-system'))).toBeDefined();
  });
});
