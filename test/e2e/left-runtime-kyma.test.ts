// A runtime Kyma left behind by a Kyma that is gone (ADR 35): its owned-by annotation names another Kyma, which no
// longer exists. A new Kyma for that runtime does not inherit its module list: resolve-template deletes it and
// creates the new Kyma's own from its spec. Nor does a late call of the gone Kyma's deletion touch the newcomer's.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig, type Cluster } from '../../local/controlplane/index.ts';
import { installCrds } from '../../local/controlplane/crds.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, API_VERSION, FINALIZER, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { EventRecorder } from '../../shared/kube/events.ts';
import { RuntimeClients } from '../../shared/kube/runtime-clients.ts';
import { composeDeps } from '../../shared/host/compose.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { effectiveSpec } from '../../functions/resolve-template/remote-kyma.ts';
import { continueDeletion } from '../../functions/purge/steps.ts';
import { connectCluster } from '../faults/restart-helpers.ts';
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

const KYMA_CRD = { ...CRD, name: 'kymas.operator.kyma-project.io' };
/** The runtime with the lifecycle CRDs (the first test's purge removed them: they may still be terminating). */
async function lifecycleCrds(): Promise<KubeClient> {
  const runtime = await KubeClient.from(cluster.kubeConfig());
  await eventually(
    'the Kyma CRD the last purge deleted is gone',
    async () => !(await runtime.get<Kyma>(KYMA_CRD))?.metadata.deletionTimestamp,
    60_000,
  );
  await installCrds(cluster.kubeConfig());
  return runtime;
}

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
    await connectCluster(world, 'heir', cluster);
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
    const runtime = await lifecycleCrds();
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

  it("a purge call that read its Kyma before another call finished the deletion leaves the next Kyma's runtime alone", async () => {
    // Two calls of one deletion ran the runtime steps side by side; one dropped the finalizer, the other went on and
    // deleted the lifecycle CRDs once the runtime's next Kyma had pushed them: that Kyma never got its runtime Kyma.
    const runtime = await lifecycleCrds();
    const newcomers = { [ANNOTATION.ownedBy]: `${KCP_NAMESPACE}/newcomer` };
    const { name, namespace } = REMOTE_KYMA;
    await runtime.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }).catch(() => undefined);
    await runtime.create({ ...REMOTE_KYMA, metadata: { name, namespace, annotations: newcomers } } as never);
    await connectCluster(world, 'late', cluster);
    const config = readConfig({ LIFECYCLE_OCI_REGISTRY: `http://${inject('controlPlane').registryHost}` });
    const deps = await composeDeps(loadKubeConfig(inject('controlPlane').kcp), config, async () => undefined);
    const on = {
      deps,
      live: deps.kcp,
      runtimes: new RuntimeClients(deps.kcp, config.kubeconfigExecCommands),
      events: new EventRecorder(deps.kcp, 'purge'),
    };
    // As the late call read it: being deleted, state Deleting, our finalizer on; in the KCP it is gone by now.
    const late = {
      apiVersion: API_VERSION,
      kind: 'Kyma',
      metadata: {
        name: 'late',
        namespace: KCP_NAMESPACE,
        uid: randomUUID(),
        deletionTimestamp: new Date().toISOString(),
        finalizers: [FINALIZER.kyma],
      },
      spec: { channel: 'regular' },
      status: { state: 'Deleting' },
    } as Kyma;
    const outcome = await continueDeletion(on, late, createLogger('purge', 'silent')).then(
      () => 'returned',
      (e: unknown) => String(e),
    );
    const kept = await runtime.get<Kyma>(REMOTE_KYMA);
    expect(kept?.metadata.annotations?.[ANNOTATION.ownedBy]).toBe(`${KCP_NAMESPACE}/newcomer`);
    expect(kept?.status?.state).toBeUndefined();
    expect((await runtime.get<Kyma>(KYMA_CRD))?.metadata.deletionTimestamp).toBeUndefined();
    const templates = { ...CRD, name: 'moduletemplates.operator.kyma-project.io' };
    expect((await runtime.get<Kyma>(templates))?.metadata.deletionTimestamp).toBeUndefined();
    expect(outcome).toBe('returned');
    await world.kcp.delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: 'late' });
    await runtime.delete(REMOTE_KYMA);
  });
});
