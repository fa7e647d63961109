// A Kyma's first contact with its runtime (resolve-template, ADR 69, ADR 85): whether the runtime serves Kymas comes
// from discovery and the runtime namespace is applied unread, so creating the runtime Kyma costs an apply of the
// namespace and the create — no read of the Kyma CRD, the namespace or (for a Kyma without status) the runtime Kyma.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { effectiveSpec } from '../functions/resolve-template/remote-kyma.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { clusters } from './clusters.ts';
import { installRuntimeKymaCrd } from './faults/function-host-helpers.ts';

const id = Date.now().toString(36);
const scope = { namespace: `first-contact-${id}`, shared: true };
const kyma = {
  apiVersion: API_VERSION,
  kind: 'Kyma',
  metadata: { name: `first-contact-${id}`, namespace: KCP_NAMESPACE },
  spec: { channel: 'regular', modules: [{ name: 'alpha' }] },
} as Kyma;
const wanted = () => Promise.resolve(true);
const noOtherOwner = () => Promise.resolve(false);
let client: KubeClient;

/** Requests this test's client sent since counting restarted, `verb resource` → count (discovery and connections left out). */
function sent(): Record<string, number> {
  const rows = requestTally().filter(
    (r) => r.server === client.server && r.verb !== 'connect' && !r.resource.startsWith('discovery'),
  );
  return Object.fromEntries(rows.map((r) => [`${r.verb} ${r.resource}`, r.count]));
}

beforeAll(async () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  await installRuntimeKymaCrd(0);
  client = await KubeClient.from(runtime);
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  await client.delete({ apiVersion: 'v1', kind: 'Namespace', name: scope.namespace }).catch(() => false);
});

describe("a Kyma's first contact with its runtime", () => {
  it('creates the runtime Kyma of a Kyma without status from the KCP spec unread: the namespace and the create', async () => {
    const found = await effectiveSpec(client, kyma, scope, wanted, undefined, noOtherOwner);
    expect(found).toMatchObject({ from: 'runtime', created: true, spec: { modules: [{ name: 'alpha' }] } });
    expect(sent()).toEqual({
      'apply namespaces': 1,
      'create kymas.operator.kyma-project.io': 1,
    });
    const ns = await client.get<Kyma>({ apiVersion: 'v1', kind: 'Namespace', name: scope.namespace });
    expect(ns?.metadata.labels).toMatchObject({ 'istio-injection': 'enabled' });
  });

  it('then reads only the runtime Kyma, whose module list counts', async () => {
    const ref = { apiVersion: API_VERSION, kind: 'Kyma', namespace: scope.namespace, name: 'default' };
    await client.mergePatch(ref, { spec: { modules: [{ name: 'bravo' }] } });
    countRequests(true);
    const reported = { ...kyma, status: { state: 'Processing' } } as Kyma;
    const found = await effectiveSpec(client, reported, scope, wanted, undefined, noOtherOwner);
    expect(found).toMatchObject({ from: 'runtime', spec: { modules: [{ name: 'bravo' }] } });
    expect(found.created).toBeUndefined();
    expect(sent()).toEqual({ 'get kymas.operator.kyma-project.io': 1 });
  });

  it('reads the runtime Kyma a Kyma without status finds existing once its create is refused, and takes its list', async () => {
    const found = await effectiveSpec(client, kyma, scope, wanted, undefined, noOtherOwner);
    expect(found).toMatchObject({ from: 'runtime', spec: { modules: [{ name: 'bravo' }] } });
    expect(found.created).toBeUndefined();
    expect(sent()).toEqual({
      'apply namespaces': 1,
      'create kymas.operator.kyma-project.io': 1,
      'get kymas.operator.kyma-project.io': 1,
    });
  });
});
