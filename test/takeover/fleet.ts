// The fleet upstream left, on clusters of the takeover test's own: an audited KCP with the RBAC of manifests/ (each
// function acts as its ServiceAccount), one audited runtime per Kyma, and the recorded objects loaded into them.
import { inject } from 'vitest';
import { loadKubeConfig, type Cluster } from '../../local/controlplane/index.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { RegistryClient } from '../../shared/oci/registry.ts';
import { readAudit, startAuditedCluster, type AuditedRequest } from '../deploy/audited-kcp.ts';
import { COMPONENTS, usernameOf } from '../deploy/identities.ts';
import { startRbacKcp, type RbacKcp } from '../deploy/rbac-kcp.ts';
import { fixtureKymas, fixtureObjects, runtimeObjectsOf, withSecretData, type FixtureObject } from './fixture.ts';
import { loadObjects } from './load.ts';
import { pushFixtureModules } from './registry.ts';

/** The identity of the kubeconfig Secrets on every runtime (what the audit logs count as ours). */
export const RUNTIME_USER = 'lifecycle-runtime';
const READS = new Set(['get', 'list', 'watch']);

export interface UpstreamFleet {
  kcp: RbacKcp;
  kymas: string[];
  runtimes: Map<string, { cluster: Cluster; auditLog: string; admin: KubeClient }>;
  /** The objects loaded into each runtime, by Kyma. */
  runtimeObjects: Map<string, FixtureObject[]>;
  kcpObjects: FixtureObject[];
}

/** cert-manager's Certificate as a stand-in CRD (the fixture's harness had no cert-manager either). */
const CERTIFICATE_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'certificates.cert-manager.io' },
  spec: {
    group: 'cert-manager.io',
    scope: 'Namespaced',
    names: { plural: 'certificates', singular: 'certificate', kind: 'Certificate', listKind: 'CertificateList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

/** The clusters, started (runtimes in parallel). */
export async function startUpstreamClusters(name: string): Promise<Pick<UpstreamFleet, 'kcp' | 'kymas' | 'runtimes'>> {
  const kymas = await fixtureKymas();
  const [kcp, ...started] = (await Promise.all([
    startRbacKcp(`${name}-kcp`),
    // Simulated rollouts: what upstream left stays as it was (no ReplicaSets or Pods were recorded), a Deployment the
    // functions apply later is marked rolled out by kwok, as its controller would.
    ...kymas.map((_, i) =>
      startAuditedCluster(`${name}-runtime-${i + 1}`, { users: [RUNTIME_USER] }, { workloads: 'simulated' }),
    ),
  ])) as [RbacKcp, ...{ cluster: Cluster; auditLog: string }[]];
  const runtimes = new Map<string, { cluster: Cluster; auditLog: string; admin: KubeClient }>();
  for (const [i, kyma] of kymas.entries()) {
    const runtime = started[i];
    if (runtime) runtimes.set(kyma, { ...runtime, admin: await KubeClient.from(runtime.cluster.kubeConfig()) });
  }
  return { kcp, kymas, runtimes };
}

/** Loads what upstream left: the modules into the registry, the KCP objects, each runtime's objects. */
export async function loadUpstreamFleet(
  clusters: Pick<UpstreamFleet, 'kcp' | 'kymas' | 'runtimes'>,
  kcpAdmin: KubeClient,
): Promise<UpstreamFleet> {
  const registryHost = inject('controlPlane').registryHost;
  await pushFixtureModules(new RegistryClient({ host: registryHost, plainHttp: true }));
  const kubeconfigs = new Map<string, string>();
  for (const [kyma, runtime] of clusters.runtimes)
    kubeconfigs.set(kyma, await runtime.cluster.kubeconfigFor(RUNTIME_USER, ['system:masters']));
  await kcpAdmin.apply(CERTIFICATE_CRD, 'fixture-loader');
  for (const ns of [KCP_NAMESPACE, 'istio-system'])
    await kcpAdmin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }).catch(() => undefined);
  const read = async (file: string) => fixtureObjects(file, registryHost);
  const secrets = (await read('kcp/secrets.yaml')).map((s) => withSecretData(s, (kyma) => kubeconfigs.get(kyma)));
  const kcpObjects = [
    ...(await read('kcp/moduletemplates.yaml')),
    ...(await read('kcp/modulereleasemetas.yaml')),
    ...secrets,
    ...(await read('kcp/kymas.yaml')),
    ...(await read('kcp/manifests.yaml')),
    ...(await read('kcp/certificates.yaml')),
  ];
  await loadObjects(kcpAdmin, kcpObjects);
  const runtimeObjects = new Map<string, FixtureObject[]>();
  for (const [kyma, runtime] of clusters.runtimes) {
    const objects = (await runtimeObjectsOf(kyma, registryHost)).map((o) =>
      o.kind === 'Secret' ? withSecretData(o, () => undefined) : o,
    );
    await loadObjects(runtime.admin, objects, kcpAdmin);
    runtimeObjects.set(kyma, objects);
  }
  return { ...clusters, runtimeObjects, kcpObjects };
}

export interface Write {
  cluster: string;
  user: string;
  verb: string;
  resource: string;
  namespace: string;
  name: string;
  code: number;
}

/** Every write by the lifecycle manager so far: the functions' ServiceAccounts on the KCP, the runtime identity on
 * each runtime (the loader writes as the clusters' admin, so none of its writes count). */
export async function writesSoFar(fleet: Pick<UpstreamFleet, 'kcp' | 'runtimes'>): Promise<Write[]> {
  const users = new Set([...COMPONENTS.map(usernameOf), RUNTIME_USER]);
  const writes = (cluster: string, requests: AuditedRequest[]) =>
    requests
      .filter((r) => users.has(r.user) && !READS.has(r.verb))
      .map((r) => ({
        cluster,
        user: r.user.replace(/^system:serviceaccount:[^:]+:lifecycle-/, ''),
        verb: r.verb,
        resource: r.resource,
        namespace: r.namespace,
        name: r.name,
        code: r.code,
      }));
  const all = writes('kcp', await readAudit(fleet.kcp.auditLog));
  for (const [kyma, runtime] of fleet.runtimes)
    all.push(...writes(`runtime ${kyma}`, await readAudit(runtime.auditLog)));
  return all;
}

/** The uid of every object of `kinds` (name → uid), to prove nothing was re-created. */
export async function uidsOf(client: KubeClient, objects: FixtureObject[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const o of objects) {
    const live = await client
      .get<{ metadata: { name: string; uid?: string } }>({
        apiVersion: o.apiVersion,
        kind: o.kind,
        namespace: o.metadata.namespace,
        name: o.metadata.name,
      })
      .catch(() => undefined);
    out[`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`] = live?.metadata.uid ?? 'gone';
  }
  return out;
}

export const manifestsIn = async (kcp: KubeClient) =>
  (
    await kcp.list<FixtureObject & { metadata: { uid?: string } }>(API_VERSION, 'Manifest', {
      namespace: KCP_NAMESPACE,
    })
  ).items;

export async function stopUpstreamClusters(fleet: Partial<Pick<UpstreamFleet, 'kcp' | 'runtimes'>>): Promise<void> {
  for (const runtime of fleet.runtimes?.values() ?? []) await runtime.cluster.stop();
  await fleet.kcp?.cluster.stop();
}

export { loadKubeConfig };
