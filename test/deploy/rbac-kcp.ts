// A KCP of its own, audited, with the RBAC of manifests/ installed: every component can act as its production
// ServiceAccount (real TokenRequest tokens), and the audit log says what each one did.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Cluster } from '../../local/controlplane/index.ts';
import { MANIFESTS_DIR } from '../../local/runner/local-runner.ts';
import { startAuditedKcp, testBinaries } from './audited-kcp.ts';
import { actAs } from './identities.ts';
import { kubectlOk } from './kubectl.ts';
import { render, toYaml, type Doc } from './validate.ts';

const RBAC_KINDS = [
  'Namespace',
  'CustomResourceDefinition',
  'ConfigMap',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
];

export interface RbacKcp {
  cluster: Cluster;
  auditLog: string;
  /** The rendered manifests/ (every kind, also those not installed). */
  docs: Doc[];
  /** A kubeconfig acting as the component's ServiceAccount. */
  identity(component: string): Promise<KubeConfig>;
}

export async function startRbacKcp(name: string): Promise<RbacKcp> {
  const { cluster, auditLog } = await startAuditedKcp(name);
  const docs = await render(MANIFESTS_DIR);
  await kubectlOk(['apply', '--server-side', '--field-manager=installer', '-f', '-'], {
    cluster,
    stdin: toYaml(docs.filter((d) => RBAC_KINDS.includes(d.kind))),
  });
  await kubectlOk(['wait', '--for=condition=Established', '--timeout=60s', 'crd', '--all'], { cluster });
  const kubectl = testBinaries().kubectl;
  return { cluster, auditLog, docs, identity: (component) => actAs(cluster, kubectl, component) };
}
