// Runtime clients shared per kubeconfig (ADR 18) on the real KCP and runtime API servers: Kymas and functions that
// reach a runtime with the same kubeconfig use one client (one discovery, one connection pool); a rotated Secret
// moves a Kyma to the new kubeconfig's client; an eviction builds a fresh one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { LABEL } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { RuntimeClients, type RuntimeAccess } from '../shared/kube/runtime-clients.ts';
import { clusters } from './clusters.ts';

const namespace = `runtime-clients-${Date.now().toString(36)}`;
let kcp: KubeClient;

const setSecret = (kyma: string, kubeconfig: string) =>
  kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `kubeconfig-${kyma}`, namespace, labels: { [LABEL.kymaName]: kyma } },
      data: { config: Buffer.from(kubeconfig).toString('base64') },
    },
    'e2e-user',
  );

function clientOf(access: RuntimeAccess): KubeClient {
  if (!('client' in access)) throw new Error(`no runtime: ${access.missing}`);
  return access.client;
}

beforeAll(async () => {
  kcp = await KubeClient.from(clusters().kcp);
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const [first, second] = inject('controlPlane').runtimes as [string, string];
  await Promise.all([setSecret('a', first), setSecret('b', first), setSecret('c', second)]);
});

afterAll(async () => {
  await kcp?.delete({ apiVersion: 'v1', kind: 'Namespace', name: namespace });
});

describe('runtime clients', () => {
  it('Kymas and functions with the same kubeconfig share one client: one API discovery for all of them', async () => {
    const applyRemote = new RuntimeClients(kcp);
    const aggregateStatus = new RuntimeClients(kcp);
    const spy = vi.spyOn(KubeClient.prototype, 'request');
    try {
      const clients = [
        await applyRemote.forKyma(namespace, 'a'),
        await applyRemote.forKyma(namespace, 'b'),
        await aggregateStatus.forKyma(namespace, 'a'),
      ].map(clientOf);
      const [shared] = clients as [KubeClient];
      expect(new Set(clients).size).toBe(1);
      for (const client of clients)
        expect((await client.get({ apiVersion: 'v1', kind: 'Namespace', name: 'default' }))?.metadata?.name).toBe(
          'default',
        );
      const other = clientOf(await applyRemote.forKyma(namespace, 'c'));
      expect(other).not.toBe(shared);
      expect(other.server).not.toBe(shared.server);
      const discoveries = spy.mock.calls.filter(([method, path]) => method === 'GET' && path === '/api/v1');
      expect(discoveries).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("a rotated Secret moves its Kyma to the new kubeconfig's client; an eviction builds a fresh client", async () => {
    const runtimes = new RuntimeClients(kcp);
    const before = clientOf(await runtimes.forKyma(namespace, 'a'));
    await setSecret('a', inject('controlPlane').runtimes[1] as string);
    const rotated = clientOf(await runtimes.forKyma(namespace, 'a'));
    expect(rotated).not.toBe(before);
    expect(rotated).toBe(clientOf(await runtimes.forKyma(namespace, 'c')));
    expect(clientOf(await runtimes.forKyma(namespace, 'b'))).toBe(before);

    runtimes.evict(namespace, 'a');
    const fresh = clientOf(await runtimes.forKyma(namespace, 'a'));
    expect(fresh).not.toBe(rotated);
    expect((await fresh.get({ apiVersion: 'v1', kind: 'Namespace', name: 'default' }))?.metadata?.name).toBe('default');
  });

  it('a Secret that is not a kubeconfig is an error naming the Secret, never its content', async () => {
    await setSecret('d', 'token: do-not-print-me');
    const failed = await new RuntimeClients(kcp).forKyma(namespace, 'd').then(
      () => '',
      (e: unknown) => String(e),
    );
    expect(failed).toBe(`Error: kubeconfig Secret kubeconfig-d of Kyma d does not hold a usable kubeconfig`);
  });
});
