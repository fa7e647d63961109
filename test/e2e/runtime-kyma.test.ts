// The runtime Kyma as the entry point on real clusters: created from the KCP spec, edited on the runtime (the runtime
// watch), ignored edits of the KCP spec, a deleted one back. The runtime side's CRD and catalog sync: runtime-side.test.ts.
import { inputsOf } from '../../functions/resolve-template/inputs.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { ANNOTATION, API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import {
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  REMOTE_KYMA,
  stopWorld,
  type World,
} from './world.ts';
import { startRuntimeSideWorld } from './runtime-side-world.ts';

let world: World;

beforeAll(async () => {
  // The writes of a user's change are announced at once, as the shipped ConfigMap has it (ADR 73).
  world = await startRuntimeSideWorld({ LIFECYCLE_ANNOUNCE_USER_WRITES: 'true' });
});

afterAll(async () => {
  await stopWorld(world);
});

describe('runtime side: the runtime Kyma', () => {
  it('the runtime Kyma is the entry point: created from the KCP spec, edits on it install modules via the runtime watch, KCP spec edits are ignored, a deleted one comes back', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'rt-b', 1);
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: {
          name: 'rt-b',
          namespace: KCP_NAMESPACE,
          labels: {
            'kyma-project.io/runtime-id': 'rt-b-id',
            'kyma-project.io/global-account-id': 'ga-b',
            'kyma-project.io/subaccount-id': 'sa-b',
          },
        },
        spec: { channel: 'regular', modules: [] },
      },
      'e2e-user',
    );
    await kymaInState(world, 'rt-b', 'Ready');
    const created = await eventually('runtime Kyma created and mirrored', async () => {
      const k = await runtime.get<Kyma>(REMOTE_KYMA);
      return k?.status?.state === 'Ready' ? k : undefined;
    });
    expect(created.spec).toEqual({ channel: 'regular', modules: [] });
    expect(created.metadata.labels).toMatchObject({
      'operator.kyma-project.io/watched-by': 'kyma',
      'operator.kyma-project.io/managed-by': 'kyma',
      'kyma-project.io/runtime-id': 'rt-b-id',
      'kyma-project.io/global-account-id': 'ga-b',
      'kyma-project.io/subaccount-id': 'sa-b',
    });
    const namespace = await runtime.get<{ metadata: { name: string; labels?: Record<string, string> } }>({
      apiVersion: 'v1',
      kind: 'Namespace',
      name: 'kyma-system',
    });
    expect(namespace?.metadata.labels).toMatchObject({
      'istio-injection': 'enabled',
      'namespaces.warden.kyma-project.io/validate': 'enabled',
      'operator.kyma-project.io/managed-by': 'kyma',
    });
    expect(created.metadata.annotations?.['deprecated-operator.kyma-project.io/owned-by']).toBe('kcp-system/rt-b');

    const edited = Date.now();
    await runtime.mergePatch(REMOTE_KYMA, { spec: { modules: [{ name: 'mike' }] } });
    const ready = await kymaInState(world, 'rt-b', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    console.log(`[latency] runtime Kyma edit → module Ready on KCP: ${Date.now() - edited} ms`);
    // The list came from the runtime Kyma as edited: its generation is recorded (ADR 43), with the digest of the KCP
    // Kyma's own inputs it was resolved from (ADR 66).
    const editedGeneration = (await runtime.get<Kyma>(REMOTE_KYMA))?.metadata.generation;
    expect(ready.status?.specSource).toEqual({
      from: 'runtime',
      channel: 'regular',
      generation: editedGeneration,
      inputs: inputsOf(ready.metadata),
    });
    expect(world.events.some((e) => e.source === '/lifecycle-manager/runtime-watch' && e.name === 'rt-b')).toBe(true);
    // The edit's lane is recorded on what it wrote (ADR 72): render-manifest's Manifest (an annotation), and the status
    // apply-remote wrote for it in a call that came from the API server's event without a lane of its own — seen in
    // the API server's next event (a later write in another lane, a resync's, may have replaced it since).
    const [manifest] = await manifestsOf(world, 'rt-b');
    expect(manifest?.metadata.annotations?.[ANNOTATION.lastLane]).toBe('user');
    const kept = world.events.some(
      (e) =>
        e.kind === 'Manifest' &&
        e.name === manifest?.metadata.name &&
        (e.data as Manifest)?.status?.lastLane === 'user',
    );
    expect(kept, 'a status written in the user lane, as the API server keeps it').toBe(true);
    const mirrored = await eventually('module mirrored to the runtime Kyma', async () => {
      const k = await runtime.get<Kyma>(REMOTE_KYMA);
      return k?.status?.modules?.[0]?.state === 'Ready' ? k : undefined;
    });
    expect(mirrored.status?.modules?.[0]?.template?.metadata.namespace).toBe('kyma-system');
    expect(mirrored.status?.modules?.[0]).not.toHaveProperty('manifest');

    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: { name: 'rt-b', namespace: KCP_NAMESPACE },
        spec: { channel: 'regular', modules: [] },
      },
      'e2e-user',
    );
    await world.runner.broker.idle();
    expect((await getKyma(world, 'rt-b'))?.status?.modules?.map((m) => m.name)).toEqual(['mike']);

    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: { name: 'rt-b', namespace: KCP_NAMESPACE },
        spec: { channel: 'regular', modules: [{ name: 'mike' }] },
      },
      'e2e-user',
    );
    await world.runner.broker.idle(); // no resolution that read the KCP spec before this edit is still under way
    await runtime.delete(REMOTE_KYMA);
    const recreated = await eventually('runtime Kyma re-created from the KCP spec', async () => {
      const k = await runtime.get<Kyma>(REMOTE_KYMA);
      return k && !k.metadata.deletionTimestamp ? k : undefined;
    });
    expect(recreated.spec?.modules?.map((m) => m.name)).toEqual(['mike']);
    await kymaInState(world, 'rt-b', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'rt-b');
    await kymaGone(world, 'rt-b');
    expect(await runtime.get(REMOTE_KYMA)).toBeUndefined();
  });
});
