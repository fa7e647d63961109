import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { crRef, deploymentOf, moduleCrOn, publishModule, userCr } from './removal-helpers.ts';
import { checkedAgain, kymaKey, manifestKey } from './handled.ts';
import { throwawayRuntime } from './throwaway.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  REMOTE_KYMA,
  startWorld,
  type World,
} from './world.ts';

let world: World;
const clusters: Cluster[] = [];

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_PURGE_GRACE_SECONDS: '12' }); // long enough to watch the chain name the stuck module before the purge
  await publishModule(world, 'golf', ['1.0.0']);
  await publishModule(world, 'hotel', ['1.0.0']);
  await publishModule(world, 'juliet', ['1.0.0'], { withoutDefaultCr: true });
});

afterAll(async () => {
  await world?.runner.stop();
  for (const c of clusters) await c.stop();
});

/** A Kyma with one module on its own runtime cluster, Ready. */
async function kymaOnOwnRuntime(kyma: string, module: string): Promise<{ cluster: Cluster; runtime: KubeClient }> {
  const cluster = await throwawayRuntime(`${kyma}-runtime`);
  clusters.push(cluster);
  await world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kyma, namespace: KCP_NAMESPACE, labels: { 'operator.kyma-project.io/kyma-name': kyma } },
      data: { config: Buffer.from(cluster.kubeconfig).toString('base64') },
    },
    'e2e-user',
  );
  await applyKyma(world, kyma, { channel: 'regular', modules: [{ name: module }] });
  await kymaInState(world, kyma, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
  return { cluster, runtime: await KubeClient.from(cluster.kubeConfig()) };
}

describe('Kyma deletion chain (purge function)', () => {
  it('foreground: Deleting, Manifests deleted, a default CR stuck on a finalizer is purged after the grace period (with an Event), then the Kyma is gone', async () => {
    const { runtime } = await kymaOnOwnRuntime('del-fg', 'golf');
    const defaultCr = crRef('golf', (await manifestsOf(world, 'del-fg'))[0]?.metadata.name ?? '', 'kyma-system');
    await runtime.mergePatch(defaultCr, { metadata: { finalizers: ['test.kyma-project.io/operator-gone'] } });
    const deleted = Date.now();
    await deleteKyma(world, 'del-fg', 'Foreground');
    // Before the grace period ends, the Kyma names the stuck default CR and the finalizer that holds it.
    const deleting = await kymaInState(world, 'del-fg', 'Deleting', (k) =>
      Boolean(k.status?.lastOperation?.operation.includes('[finalizers: ')),
    );
    expect(deleting.status?.lastOperation?.operation).toBe(
      `waiting for modules to be deleted: golf (deleting the default CR and waiting until it is gone: Golf kyma-system/${defaultCr.name} [finalizers: test.kyma-project.io/operator-gone])`,
    );
    await kymaGone(world, 'del-fg');
    // The grace period (12 s here) counts from the deletionTimestamp, which the API server keeps in whole seconds: it
    // may lie up to 1 s before the moment this test took.
    expect(Date.now() - deleted).toBeGreaterThanOrEqual(11_000);
    expect(await moduleCrOn(runtime, defaultCr)).toBeUndefined();
    expect(await deploymentOf(runtime, 'golf')).toBeUndefined();
    const events = await world.kcp.list<{
      kind?: string;
      reason?: string;
      message?: string;
      involvedObject?: { name?: string };
    }>('v1', 'Event', { namespace: KCP_NAMESPACE });
    const purged = events.items.find(
      (e) => e.reason === 'PurgedModuleCrFinalizers' && e.involvedObject?.name === 'del-fg',
    );
    expect(purged?.message).toContain(`Golf kyma-system/${defaultCr.name} [test.kyma-project.io/operator-gone]`);
    // The waits of the chain count under upstream's requeue reason, so dashboards built on it keep working.
    const metrics = await (await fetch(new URL('/metrics', world.runner.functions.get('purge') ?? ''))).text();
    expect(metrics).toMatch(
      /^lifecycle_mgr_requeue_reason_total\{requeue_reason="kyma_deletion",requeue_type="intended"\} [1-9]/m,
    );
  });

  it('background, runtime removed: user CRs are never deleted; once the kubeconfig Secret is deleted the Kyma disappears cleanly', async () => {
    const { cluster, runtime } = await kymaOnOwnRuntime('del-bg', 'hotel');
    await userCr(runtime, 'hotel', 'keep-me', 'team-x');
    const deleted = Date.now();
    await deleteKyma(world, 'del-bg', 'Background');
    await eventually('Kyma says which CR blocks', async () =>
      (await getKyma(world, 'del-bg'))?.status?.lastOperation?.operation.includes('Hotel team-x/keep-me'),
    );
    // Once the purge grace period (12 s, whole seconds) is over, a full check of the Kyma and of its deleting Manifest
    // handled — purge's and apply-remote's calls waited (503) — and the user CR is still there.
    await sleep(Math.max(0, deleted + 14_000 - Date.now()));
    const manifest = manifestKey((await manifestsOf(world, 'del-bg'))[0]?.metadata.name ?? '');
    const waited = [
      ...(await checkedAgain(world, kymaKey('del-bg'), { idle: false })),
      ...(await checkedAgain(world, manifest, { idle: false })),
    ];
    expect(waited.filter((c) => c.fn === 'purge' || c.fn === 'apply-remote').map((c) => [c.fn, c.status])).toEqual([
      ['purge', 503],
      ['apply-remote', 503],
    ]);
    expect(await runtime.get(crRef('hotel', 'keep-me', 'team-x'))).toBeDefined();
    expect((await getKyma(world, 'del-bg'))?.status?.state).toBe('Deleting');
    // The runtime gone (its Secret still there): the same checks handled, the Kyma is still Deleting.
    await cluster.stop();
    const unreachable = [
      ...(await checkedAgain(world, kymaKey('del-bg'), { idle: false })),
      ...(await checkedAgain(world, manifest, { idle: false })),
    ];
    expect(unreachable.filter((c) => c.fn === 'purge' || c.fn === 'apply-remote').map((c) => c.fn)).toEqual([
      'purge',
      'apply-remote',
    ]);
    expect((await getKyma(world, 'del-bg'))?.status?.state).toBe('Deleting');
    await world.kcp.delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: 'del-bg' });
    await world.runner.resync();
    await kymaGone(world, 'del-bg');
    expect(await manifestsOf(world, 'del-bg')).toEqual([]);
  });

  it('module without default CR: no module CR, Ready; a foreign Manifest finalizer keeps the Kyma Deleting until the runtime and its Secret are gone', async () => {
    const { cluster, runtime } = await kymaOnOwnRuntime('del-nocr', 'juliet');
    expect(
      (await runtime.list('juliet.modules.kyma-project.io/v1alpha1', 'Juliet').catch(() => ({ items: [] }))).items,
    ).toEqual([]);
    const [manifest] = await manifestsOf(world, 'del-nocr');
    const ref = {
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'Manifest',
      namespace: KCP_NAMESPACE,
      name: manifest?.metadata.name ?? '',
    };
    await world.kcp.mergePatch(ref, {
      metadata: { finalizers: [...(manifest?.metadata.finalizers ?? []), 'test.kyma-project.io/blocking'] },
    });
    await deleteKyma(world, 'del-nocr');
    await eventually('Kyma Deleting, naming the foreign finalizer', async () =>
      (await getKyma(world, 'del-nocr'))?.status?.lastOperation?.operation.includes(
        'waiting as other finalizers are present: [test.kyma-project.io/blocking]',
      ),
    );
    expect(await deploymentOf(runtime, 'juliet')).toBeUndefined();
    await cluster.stop();
    await world.kcp.delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: 'del-nocr' });
    await world.runner.resync();
    await kymaGone(world, 'del-nocr');
    expect(await manifestsOf(world, 'del-nocr')).toEqual([]);
  });

  it('a foreign finalizer on the Kyma: the chain finishes, a KymaDeletionStuck Warning names the finalizer, and without it the Kyma goes', async () => {
    await connectRuntime(world, 'del-held', 0);
    await applyKyma(world, 'del-held', { channel: 'regular', modules: [{ name: 'hotel' }] });
    const ready = await kymaInState(world, 'del-held', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const ref = {
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'Kyma',
      namespace: KCP_NAMESPACE,
      name: 'del-held',
    };
    await world.kcp.mergePatch(ref, {
      metadata: { finalizers: [...(ready.metadata.finalizers ?? []), 'test.kyma-project.io/hold'] },
    });
    await deleteKyma(world, 'del-held');
    const stuck = await eventually(
      'a KymaDeletionStuck Event about del-held',
      async () => {
        const events = await world.kcp.list<{
          metadata?: { name?: string };
          reason?: string;
          type?: string;
          message?: string;
        }>('v1', 'Event', { namespace: KCP_NAMESPACE, fieldSelector: 'involvedObject.name=del-held' });
        return events.items.find((e) => e.reason === 'KymaDeletionStuck');
      },
      120_000,
    );
    expect(stuck).toMatchObject({
      type: 'Warning',
      message:
        "the Kyma's deletion waits for finalizers the lifecycle manager does not own: [test.kyma-project.io/hold]",
    });
    expect(await manifestsOf(world, 'del-held')).toEqual([]);
    await world.kcp.mergePatch(ref, { metadata: { finalizers: [] } });
    await kymaGone(world, 'del-held');
  });

  it('an unusable kubeconfig Secret holds the deletion at the runtime, naming the Secret and the way out; fixed → the runtime is cleaned and the Kyma goes', async () => {
    const { cluster, runtime } = await kymaOnOwnRuntime('del-bad', 'golf');
    // Ready can come before resolve-template's call that creates the runtime Kyma (once aggregate-status synced the CRDs).
    await eventually(
      'the runtime Kyma exists',
      async () => Boolean(await runtime.get(REMOTE_KYMA).catch(() => undefined)),
      60_000,
    );
    const secret = { apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: 'del-bad' };
    await world.kcp.mergePatch(secret, {
      data: { config: Buffer.from('this is not a kubeconfig').toString('base64') },
    });
    await deleteKyma(world, 'del-bad');
    const held = await kymaInState(world, 'del-bad', 'Deleting', (k) =>
      Boolean(k.status?.lastOperation?.operation.startsWith('the runtime cannot be cleaned up')),
    );
    expect(held.status?.lastOperation?.operation).toBe(
      'the runtime cannot be cleaned up: kubeconfig Secret del-bad of Kyma del-bad does not hold a usable kubeconfig; ' +
        'fix the kubeconfig Secret, or delete it to let the Kyma go without cleaning up the runtime',
    );
    expect(await runtime.get(REMOTE_KYMA), 'the runtime Kyma stays while the runtime cannot be reached').toBeDefined();

    await world.kcp.mergePatch(secret, { data: { config: Buffer.from(cluster.kubeconfig).toString('base64') } });
    await kymaGone(world, 'del-bad', 120_000);
    expect(await runtime.get(REMOTE_KYMA)).toBeUndefined();
    expect(await deploymentOf(runtime, 'golf')).toBeUndefined();
  });
});
