// A Kyma's deletion removes the lifecycle CRDs from its runtime (upstream does too). The next Kyma on that runtime
// must get them again at once, although the process trusted them a moment ago (shared objects, ADR 32): its first
// sync finds a catalog kind the runtime no longer serves, forgets what it trusted there and pushes the CRDs again.
// Before, it answered "sync pending" until the trust window (60 s) had passed and the retries were spent — a
// removal test's next install waited more than 90 s for it. The bound below is that window, not a speed claim.
// A runtime cluster of its own: on the shared ones other test files' Kymas keep the CRDs in place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_TRUST_MS } from '../../shared/kube/shared-objects.ts';
import type { Cluster } from '../../local/controlplane/index.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { publishModule } from './removal-helpers.ts';
import { throwawayRuntime } from './throwaway.ts';
import {
  applyKyma,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: 'moduletemplates.operator.kyma-project.io',
};
let world: World;
let cluster: Cluster | undefined;

/** The Kyma's kubeconfig Secret, pointing at the test's own runtime. */
async function connect(kyma: string): Promise<void> {
  await world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kyma, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: kyma } },
      data: { config: Buffer.from(cluster?.kubeconfig ?? '').toString('base64') },
    },
    'e2e-user',
  );
}

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'oscar', ['1.0.0']);
});

afterAll(async () => {
  await stopWorld(world);
  await cluster?.stop();
});

describe('the lifecycle CRDs after a Kyma deletion removed them from the runtime', () => {
  it('the next Kyma on that runtime gets them again and goes Ready, the CRDs back before the trust of the deleted ones ran out', async () => {
    cluster = await throwawayRuntime('crd-again-runtime');
    const runtime = await KubeClient.from(cluster.kubeConfig());
    await connect('crd-first');
    await applyKyma(world, 'crd-first', { channel: 'regular', modules: [{ name: 'oscar' }] });
    await kymaInState(world, 'crd-first', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    await deleteKyma(world, 'crd-first');
    await kymaGone(world, 'crd-first');
    await eventually(
      'the ModuleTemplate CRD gone from the runtime',
      async () => (await runtime.get(CRD)) === undefined,
    );

    await connect('crd-next');
    await applyKyma(world, 'crd-next', { channel: 'regular', modules: [{ name: 'oscar' }] });
    await eventually(
      'the ModuleTemplate CRD pushed to the runtime again',
      async () => runtime.get(CRD),
      SHARED_TRUST_MS * 0.75,
    );
    const ready = await kymaInState(world, 'crd-next', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect(ready.status?.modules?.[0]?.name).toBe('oscar');
    await deleteKyma(world, 'crd-next');
    await kymaGone(world, 'crd-next');
  }, 300_000);
});
