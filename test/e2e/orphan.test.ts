// An orphaned Manifest (upstream 4.12): one its Kyma's status has not referenced for the grace period
// (LIFECYCLE_ORPHAN_GRACE_SECONDS, upstream's 5 minutes; 5 s here) goes Error "orphaned manifest detected" and is never
// installed, while the Kyma and its own module stay Ready. The stray Manifest is held by skip-reconciliation until it is
// older than the grace, so apply-remote's first look at it is after the grace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  eventually,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const KYMA = 'orph-k';
const GRACE_SECONDS = 5;
let world: World;

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_ORPHAN_GRACE_SECONDS: String(GRACE_SECONDS) });
  await publishModule(world, 'oscar', ['1.0.0']);
  await connectRuntime(world, KYMA, 0);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('orphaned Manifests', () => {
  it('a Manifest its Kyma has not referenced for the grace period goes Error and is never installed; the Kyma stays Ready', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'oscar' }] });
    await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const [own] = await manifestsOf(world, KYMA);
    if (!own) throw new Error('no Manifest');
    const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name: `${KYMA}-stray` };
    // Same install as the module's own Manifest, but no module-name label: no status entry of the Kyma can name it.
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Manifest',
        metadata: {
          name: ref.name,
          namespace: KCP_NAMESPACE,
          labels: { [LABEL.kymaName]: KYMA, [LABEL.skipReconciliation]: 'true' },
        },
        spec: own.spec,
      },
      'e2e-user',
    );
    await eventually('the stray Manifest older than the grace', async () => {
      const stray = await world.kcp.get<Manifest>(ref);
      return Date.now() - Date.parse(stray?.metadata.creationTimestamp ?? '') > (GRACE_SECONDS + 1) * 1000;
    });
    await world.kcp.mergePatch(ref, { metadata: { labels: { [LABEL.skipReconciliation]: null } } });

    const orphan = await eventually('orphan reported', async () => {
      const m = await world.kcp.get<Manifest>(ref);
      return m?.status?.state === 'Error' ? m : undefined;
    });
    expect(orphan.status?.lastOperation?.operation).toMatch(
      new RegExp(`^orphaned manifest detected: Kyma ${KYMA} has not referenced it in its status for \\d+ seconds$`),
    );
    expect(orphan.metadata.finalizers ?? [], 'never taken on for an install').toEqual([]);
    const kyma = await kymaInState(world, KYMA, 'Ready');
    expect(kyma.status?.modules?.map((m) => `${m.name}:${m.state}`)).toEqual(['oscar:Ready']);
    expect((await world.kcp.get<Manifest>({ ...ref, name: own.metadata.name }))?.status?.state).toBe('Ready');

    await world.kcp.delete(ref);
    await eventually('the stray Manifest gone', async () => (await world.kcp.get(ref)) === undefined);
  });
});
