// A runtime Kyma left behind by a Kyma that is gone (ADR 35): its owned-by annotation names another Kyma, which no
// longer exists. A new Kyma for that runtime does not inherit its module list: resolve-template deletes it and
// creates the new Kyma's own from its spec.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { installCrds } from '../../local/controlplane/crds.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { effectiveSpec } from '../../functions/resolve-template/remote-kyma.ts';
import { publishModule } from './removal-helpers.ts';
import { throwawayRuntime } from './throwaway.ts';
import {
  applyKyma,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  REMOTE_KYMA,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
let world: World;
let cluster: Cluster;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'mike', ['1.0.0']);
  cluster = await throwawayRuntime('left-runtime');
});

afterAll(async () => {
  await stopWorld(world);
  await cluster?.stop();
});

describe('a runtime Kyma left by a Kyma that is gone', () => {
  it('is not inherited: the new Kyma gets its own runtime Kyma from its spec', async () => {
    await installCrds(cluster.kubeConfig());
    const runtime = await KubeClient.from(cluster.kubeConfig());
    await runtime
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kyma-system' } })
      .catch(() => undefined);
    await runtime.create({
      ...REMOTE_KYMA,
      metadata: {
        name: REMOTE_KYMA.name,
        namespace: REMOTE_KYMA.namespace,
        annotations: { [ANNOTATION.ownedBy]: `${KCP_NAMESPACE}/ghost` },
      },
      spec: { channel: 'regular', modules: [{ name: 'ghost-module' }] },
    } as never);
    await world.kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'heir', namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: 'heir' } },
        data: { config: Buffer.from(cluster.kubeconfig).toString('base64') },
      },
      'e2e-user',
    );
    await applyKyma(world, 'heir', { channel: 'regular', modules: [{ name: 'mike' }] });
    const ready = await kymaInState(world, 'heir', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(ready.status?.modules?.map((m) => m.name)).toEqual(['mike']);
    const own = await eventually(
      "the runtime Kyma is heir's",
      async () => {
        const k = await runtime.get<Kyma>(REMOTE_KYMA);
        return k?.metadata.annotations?.[ANNOTATION.ownedBy] === `${KCP_NAMESPACE}/heir` ? k : undefined;
      },
      60_000,
    );
    expect(own.spec?.modules?.map((m) => m.name)).toEqual(['mike']);
    await deleteKyma(world, 'heir');
    await kymaGone(world, 'heir');
  });

  it("a call whose Kyma went while it created the runtime Kyma deletes only its own, not the next Kyma's", async () => {
    // Under load a call of a Kyma being deleted read no runtime Kyma, then the runtime's next Kyma made its own, then
    // the late call's create met that one (409) and its second check found its Kyma gone: it deleted the newcomer's.
    const runtime = await KubeClient.from(cluster.kubeConfig());
    // The first test's purge removed the lifecycle CRDs: they may still be terminating (no Kyma can be created then).
    await eventually(
      'the Kyma CRD the last purge deleted is gone',
      async () =>
        !(await runtime.get<Kyma>({ ...CRD, name: 'kymas.operator.kyma-project.io' }))?.metadata.deletionTimestamp,
      60_000,
    );
    await installCrds(cluster.kubeConfig());
    const scope = { namespace: 'race', shared: true };
    const ref = { ...REMOTE_KYMA, namespace: scope.namespace };
    const newcomers = { [ANNOTATION.ownedBy]: `${KCP_NAMESPACE}/newcomer` };
    let checks = 0;
    const stillWanted = async () => {
      checks++;
      if (checks > 1) return false;
      await runtime.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'race' } }).catch(() => undefined);
      await runtime.create({ ...ref, metadata: { name: ref.name, namespace: ref.namespace, annotations: newcomers } });
      return true;
    };
    const leaver = {
      apiVersion: API_VERSION,
      kind: 'Kyma',
      metadata: { name: 'leaver', namespace: KCP_NAMESPACE },
      spec: { channel: 'regular', modules: [] },
    } as Kyma;
    const late = await effectiveSpec(runtime, leaver, scope, stillWanted, undefined, async () => true);
    expect(late.gone).toBe(true);
    expect(late.created).toBeUndefined();
    const kept = await runtime.get<Kyma>(ref);
    expect(kept?.metadata.deletionTimestamp).toBeUndefined();
    expect(kept?.metadata.annotations?.[ANNOTATION.ownedBy]).toBe(`${KCP_NAMESPACE}/newcomer`);
    await runtime.delete(ref);
  });
});
