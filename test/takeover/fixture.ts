// What upstream's lifecycle manager wrote on this project's harness (test/fixtures/upstream-klm-c5b83f1, its README
// says how it was made), read as objects to load into a KCP and runtimes. The files are data and never edited; the
// placeholders they carry are filled here: the registry, Secret data (a runtime's kubeconfig for the kubeconfig
// Secrets), owner uids. The runtime of the first Kyma is recorded; the other runtimes held the same objects with
// their own Kyma's name (the README), so theirs are that runtime's objects renamed.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/upstream-klm-c5b83f1/', import.meta.url));

export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1?: unknown;
  apiVersion?: string;
  fieldsType?: string;
  time?: string;
}

export interface FixtureObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    ownerReferences?: {
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
      blockOwnerDeletion?: boolean;
    }[];
    managedFields?: ManagedFieldsEntry[];
  };
  status?: Record<string, unknown>;
  [field: string]: unknown;
}

export const FIRST_KYMA = '0c3a2f8e-6b1d-4e5a-9f7c-2d8b4a6e1c03';
/** The placeholder of upstream's CRD schemas (the synced lifecycle CRDs on the runtime; the README says why). */
export const ELIDED_SCHEMA = '${UPSTREAM_CRD_SCHEMA}';

/** Every object of one fixture file (`kcp/kymas.yaml`, …), with `${REGISTRY}` filled in. */
export async function fixtureObjects(file: string, registry: string): Promise<FixtureObject[]> {
  const text = (await readFile(join(FIXTURE_DIR, file), 'utf8')).replaceAll('${REGISTRY}', registry);
  return parseAllDocuments(text)
    .map((d) => d.toJSON() as FixtureObject | null)
    .filter((o): o is FixtureObject => Boolean(o?.kind));
}

/** The Kyma names of the recorded fleet. */
export async function fixtureKymas(): Promise<string[]> {
  return (await fixtureObjects('kcp/kymas.yaml', '')).map((k) => k.metadata.name);
}

/** The recorded runtime of the first Kyma, as the runtime of `kyma` (names, labels and annotations renamed). */
export async function runtimeObjectsOf(kyma: string, registry: string): Promise<FixtureObject[]> {
  const [file] = (await readdir(join(FIXTURE_DIR, 'runtime'))).filter((f) => f.endsWith('.yaml'));
  const text = (await readFile(join(FIXTURE_DIR, 'runtime', file ?? ''), 'utf8')).replaceAll(FIRST_KYMA, kyma);
  return parseAllDocuments(text.replaceAll('${REGISTRY}', registry))
    .map((d) => d.toJSON() as FixtureObject | null)
    .filter((o): o is FixtureObject => Boolean(o?.kind));
}

/** Secret data placeholders filled: a Kyma's kubeconfig Secret gets `kubeconfig`, other Secrets a stand-in value. */
export function withSecretData(secret: FixtureObject, kubeconfig: (kyma: string) => string | undefined): FixtureObject {
  const data = (secret.data ?? {}) as Record<string, string>;
  const kyma = secret.metadata.labels?.['operator.kyma-project.io/kyma-name'];
  const filled = Object.fromEntries(
    Object.entries(data).map(([key, value]) => {
      if (value !== '${SECRET_DATA}') return [key, value];
      const text = key === 'config' && kyma ? (kubeconfig(kyma) ?? '') : `stand-in for ${secret.metadata.name}/${key}`;
      return [key, Buffer.from(text).toString('base64')];
    }),
  );
  return { ...secret, data: filled };
}

/** The Kyma name a KCP object belongs to (its kyma-name label, or the Kyma it is). */
export const kymaOf = (o: FixtureObject): string | undefined =>
  o.metadata.labels?.['operator.kyma-project.io/kyma-name'];
