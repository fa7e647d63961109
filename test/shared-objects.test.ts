// Shared cluster-scoped objects (ADR 32) on a real runtime API server: two clients of the same server (two Kymas'
// kubeconfigs) apply the same CRD; the second call within the trust window sends no request at all, a CRD not yet
// established is not trusted, and a changed object is applied again. Counted with the request tally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { crdSettled, SharedObjects } from '../shared/kube/shared-objects.ts';
import { clusters } from './clusters.ts';

const group = `shared-${Date.now().toString(36)}.example.com`;
const crd = (description: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', description, 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});
let first: KubeClient;
let second: KubeClient;
const requestsTo = (server: string) =>
  requestTally()
    .filter((r) => r.server === server)
    .reduce((n, r) => n + r.count, 0);

beforeAll(async () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  [first, second] = await Promise.all([KubeClient.from(runtime), KubeClient.from(runtime)]);
});

afterAll(async () => {
  countRequests(false);
  await first?.delete({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: `widgets.${group}`,
  });
});

describe('shared cluster-scoped objects (ADR 32)', () => {
  it("a CRD seen established by one Kyma's client is trusted by another's on the same server; a change is applied again", async () => {
    const memo = new SharedObjects(60_000);
    countRequests(true);
    const created = await memo.apply(first, crd('one'), 'lifecycle-manager', crdSettled);
    expect(requestsTo(first.server)).toBeGreaterThan(0);
    // Just created: not established yet, so not trusted — the next call reads it again until it is.
    let live = created;
    while (!crdSettled(live)) live = await memo.apply(first, crd('one'), 'lifecycle-manager', crdSettled);
    countRequests(true);
    const trusted = await memo.apply(second, crd('one'), 'lifecycle-manager', crdSettled);
    expect(requestsTo(second.server), 'requests for a CRD another client saw established').toBe(0);
    expect(crdSettled(trusted)).toBe(true);
    expect(trusted.metadata?.name).toBe(`widgets.${group}`);

    const changed = await memo.apply(second, crd('two'), 'lifecycle-manager', crdSettled);
    expect(requestsTo(second.server), 'a changed CRD is read and applied').toBeGreaterThanOrEqual(2);
    expect(changed.metadata?.name).toBe(`widgets.${group}`);
    const stored = await second.get<{
      metadata?: { name?: string };
      spec: { versions: { schema: { openAPIV3Schema: { description: string } } }[] };
    }>({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: `widgets.${group}` });
    expect(stored?.spec.versions[0]?.schema.openAPIV3Schema.description).toBe('two');
  });

  it('trust ends after the window: the object is read again', async () => {
    const memo = new SharedObjects(60_000);
    const at = Date.now();
    await memo.apply(first, crd('two'), 'lifecycle-manager', crdSettled, at);
    countRequests(true);
    await memo.apply(second, crd('two'), 'lifecycle-manager', crdSettled, at + 59_000);
    expect(requestsTo(second.server)).toBe(0);
    await memo.apply(second, crd('two'), 'lifecycle-manager', crdSettled, at + 61_000);
    expect(requestsTo(second.server)).toBeGreaterThan(0);
  });
});
