// A custom resource read or written right after its CRD is established can meet kube-apiserver's watch cache still
// initializing: 429 "storage is (re)initializing" with retryAfterSeconds. The client sends such a request again after
// the time the server names (ADR 54), as client-go does, so a fresh runtime's catalog sync or default CR no longer
// fails its whole call. Real runtime API server; the request tally shows how many requests each read took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { clusters } from './clusters.ts';

const CRDS = 6;
const suffix = Date.now().toString(36);
const groupOf = (i: number) => `gadgets${i}-${suffix}.example.com`;
const crdOf = (i: number) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${groupOf(i)}` },
  spec: {
    group: groupOf(i),
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});
const ref = (i: number) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: `gadgets.${groupOf(i)}`,
});
type Crd = KubeObject & { status?: { conditions?: { type: string; status: string }[] } };
let client: KubeClient;

beforeAll(async () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  client = await KubeClient.from(runtime);
});

afterAll(async () => {
  countRequests(false);
  await Promise.all(Array.from({ length: CRDS }, (_, i) => client?.delete(ref(i)).catch(() => false)));
});

/** Established and in discovery: a busy server lists a new group version in its discovery a moment after it set
 * Established (a 404 then, which callers retry; this test is about the 429 of the storage behind it). */
async function established(i: number): Promise<void> {
  for (;;) {
    const crd = await client.get<Crd>(ref(i));
    if (crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') && (await served(i)))
      return;
    await sleep(20);
  }
}

async function served(i: number): Promise<boolean> {
  const list = await client
    .request<{ resources?: { kind: string }[] }>('GET', `/apis/${groupOf(i)}/v1`)
    .catch(() => undefined);
  return Boolean(list?.resources?.some((r) => r.kind === 'Gadget'));
}

describe('a 429 of a resource still initializing is retried (ADR 54)', () => {
  it(`lists and creates custom resources of ${CRDS} CRDs the moment each is established`, async () => {
    countRequests(true);
    const outcomes = await Promise.all(
      Array.from({ length: CRDS }, async (_, i) => {
        await client.apply(crdOf(i), 'too-many-requests-test');
        await established(i);
        const apiVersion = `${groupOf(i)}/v1`;
        const listed = await client.list(apiVersion, 'Gadget', { namespace: 'default' });
        const made = await client.create({
          apiVersion,
          kind: 'Gadget',
          metadata: { name: 'one', namespace: 'default' },
        });
        return { listed: listed.items.length, made: made.metadata.name };
      }),
    );
    expect(outcomes).toEqual(Array.from({ length: CRDS }, () => ({ listed: 0, made: 'one' })));
    const reads = requestTally().filter((r) => r.verb === 'list' && r.resource.startsWith('gadgets.gadgets'));
    // One LIST per CRD, plus one per 429 the server answered while its cache initialized (how many is up to timing).
    expect(reads.reduce((n, r) => n + r.count, 0)).toBeGreaterThanOrEqual(CRDS);
    console.log(`LISTs sent for ${CRDS} fresh CRDs: ${reads.reduce((n, r) => n + r.count, 0)}`);
  });
});
