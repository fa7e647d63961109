// Loads fixture objects into a cluster as upstream left them: spec and metadata, then the status, then the recorded
// managedFields (so the field managers are upstream's, not the loader's). Owner references get the uid of the owner
// as created here. What upstream's fixture cannot give (the schema of the synced lifecycle CRDs) comes from the KCP.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import { ELIDED_SCHEMA, type FixtureObject } from './fixture.ts';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
/** Created first, in this order: what later objects need to exist. */
const FIRST = ['Namespace', 'CustomResourceDefinition'];

/** Every object, namespaces and CRDs first; answers the uid of each created object by `kind/namespace/name`. */
export async function loadObjects(
  client: KubeClient,
  objects: FixtureObject[],
  kcp?: KubeClient,
): Promise<Map<string, string>> {
  const uids = new Map<string, string>();
  const ordered = [
    ...FIRST.flatMap((kind) => objects.filter((o) => o.kind === kind)),
    ...objects.filter((o) => !FIRST.includes(o.kind)),
  ];
  for (const object of ordered) {
    const created = isElidedCrd(object)
      ? await loadLifecycleCrd(client, object, kcp)
      : await loadObject(client, object, uids);
    uids.set(keyOf(object), created);
    if (object.kind === 'CustomResourceDefinition') await established(client, object.metadata.name);
  }
  return uids;
}

export const keyOf = (o: { kind?: string; metadata: { name: string; namespace?: string } }) =>
  `${o.kind ?? ''}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

async function loadObject(client: KubeClient, object: FixtureObject, uids: Map<string, string>): Promise<string> {
  const { managedFields, ...metadata } = object.metadata;
  const ownerReferences = metadata.ownerReferences?.map((o) => ({
    ...o,
    uid: uids.get(`${o.kind}/${metadata.namespace ?? ''}/${o.name}`) ?? o.uid,
  }));
  const { status, ...rest } = object;
  const body = {
    ...rest,
    ...(status && !hasStatusSubresource(object) ? { status } : {}),
    metadata: { ...metadata, ...(ownerReferences ? { ownerReferences } : {}) },
  };
  const created = await client.create<FixtureObject & { metadata: { uid?: string } }>(
    body as FixtureObject,
    false,
    'fixture-loader',
  );
  const ref = { apiVersion: object.apiVersion, kind: object.kind, namespace: metadata.namespace, name: metadata.name };
  if (status && hasStatusSubresource(object)) await client.mergePatch(ref, { status }, 'status');
  if (managedFields?.length) await client.mergePatch(ref, { metadata: { managedFields } });
  return created.metadata.uid ?? '';
}

/** Kinds whose status is written through the status subresource (the others are created with theirs, or have none). */
function hasStatusSubresource(object: FixtureObject): boolean {
  return ['Kyma', 'Manifest', 'Deployment', 'StatefulSet'].includes(object.kind);
}

const isElidedCrd = (o: FixtureObject) =>
  o.kind === 'CustomResourceDefinition' && JSON.stringify(o).includes(ELIDED_SCHEMA);

/** A synced lifecycle CRD: upstream's metadata with the KCP's spec (conversion None), applied as upstream's
 * `lifecycle-manager` did; its recorded field sets are elided in the fixture, so they cannot be restored. */
async function loadLifecycleCrd(
  client: KubeClient,
  object: FixtureObject,
  kcp: KubeClient | undefined,
): Promise<string> {
  const source = await kcp?.get<{ metadata: { name: string }; spec: Record<string, unknown> }>({
    ...CRD,
    name: object.metadata.name,
  });
  if (!source)
    throw new Error(`CRD ${object.metadata.name}: the fixture elides its schema and the KCP has none to use`);
  const metadata = { ...object.metadata };
  delete metadata.managedFields;
  const crd = { ...CRD, metadata, spec: { ...source.spec, conversion: { strategy: 'None' } } };
  const applied = await client.apply<FixtureObject & { metadata: { uid?: string } }>(
    crd as FixtureObject,
    'lifecycle-manager',
  );
  return applied.metadata.uid ?? '';
}

async function established(client: KubeClient, name: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const crd = await client.get<{
      metadata: { name: string };
      status?: { conditions?: { type: string; status: string }[] };
    }>({ ...CRD, name });
    if (crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await sleep(100);
  }
  throw new Error(`CRD ${name} not established`);
}

/** Deletes the objects again (finalizers dropped first), newest first; objects already gone are fine. */
export async function unloadObjects(client: KubeClient, objects: FixtureObject[]): Promise<void> {
  for (const object of [...objects].reverse()) {
    const ref = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      namespace: object.metadata.namespace,
      name: object.metadata.name,
    };
    await client.mergePatch(ref, { metadata: { finalizers: null } }).catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
    await client.delete(ref).catch(() => undefined);
  }
}
