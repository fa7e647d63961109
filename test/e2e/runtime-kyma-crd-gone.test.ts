// A runtime's Kyma CRD deleted under a Ready Kyma (as a late purge call of the runtime's previous Kyma did, ADR 70):
// the CRD goes, and with it the runtime Kyma. The Kyma is never Ready without its runtime Kyma, and both come back at
// once, not with the next drift check minutes later (ADR 74).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { AWAITING_RUNTIME_KYMA } from '../../functions/aggregate-status/decide.ts';
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

const KYMA = 'crd-gone';
const KYMA_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: 'kymas.operator.kyma-project.io',
};
let world: World;
let cluster: Cluster;
let runtime: KubeClient;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'oscar', ['1.0.0']);
  cluster = await throwawayRuntime('crd-gone');
  runtime = await connectCluster(world, KYMA, cluster);
});

afterAll(async () => {
  await stopWorld(world);
  await cluster?.stop();
});

/** The states of the Kyma the ApiServerSource delivered from `from` on, with where its module list came from. */
const statesSince = (from: number) =>
  world.events.slice(from).flatMap((e) => {
    const k = e.data as Kyma | undefined;
    return k?.kind === 'Kyma' && k.metadata.name === KYMA
      ? [{ state: k.status?.state, from: k.status?.specSource?.from, operation: k.status?.lastOperation?.operation }]
      : [];
  });

describe("the runtime's Kyma CRD deleted under a Ready Kyma", () => {
  it('brings the CRD and the runtime Kyma back at once, and the Kyma is not Ready without them', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'oscar' }] });
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.specSource?.from === 'runtime');
    const first = await eventually('the runtime Kyma', () => runtime.get<Kyma>(REMOTE_KYMA), 30_000);
    const mark = world.events.length;

    await runtime.delete(KYMA_CRD);
    await eventually('the runtime Kyma gone with its CRD', async () => !(await runtime.get<Kyma>(REMOTE_KYMA)), 60_000);
    const back = await eventually(
      'a new runtime Kyma of this Kyma',
      async () => {
        const k = await runtime.get<Kyma>(REMOTE_KYMA).catch(() => undefined);
        return k && k.metadata.uid !== first.metadata.uid ? k : undefined;
      },
      60_000,
    );
    expect(back.metadata.annotations?.[ANNOTATION.ownedBy]).toBe(`${KCP_NAMESPACE}/${KYMA}`);
    expect(back.spec?.modules?.map((m) => m.name)).toEqual(['oscar']);
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.specSource?.from === 'runtime');

    // resolve-template's switch to the KCP spec keeps the state it found; aggregate-status's next word is Processing.
    const fromKcp = statesSince(mark).filter((s) => s.from === 'kcp');
    expect(fromKcp.length, 'the module list was taken from the KCP spec meanwhile').toBeGreaterThan(0);
    const held = fromKcp.findIndex((s) => s.state !== 'Ready');
    expect(fromKcp[held]).toMatchObject({ state: 'Processing', operation: AWAITING_RUNTIME_KYMA });
    expect(fromKcp.slice(held).filter((s) => s.state === 'Ready')).toEqual([]);
    await deleteKyma(world, KYMA);
    await kymaGone(world, KYMA);
  });
});
