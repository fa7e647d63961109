// What the RBAC objects of manifests/ grant each ServiceAccount, as (verb, resource, names) triples, and whether an
// audited request was one of them. Pure.
import type { AuditedRequest } from './audited-kcp.ts';
import type { Doc } from './validate.ts';

export interface Grant {
  verb: string;
  /** Like the audit log's: `secrets`, `kymas.operator.kyma-project.io/status`. */
  resource: string;
  /** Empty = any name. */
  names: string[];
  /** Role namespace; '' for a ClusterRole. */
  namespace: string;
}

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}
interface Binding extends Doc {
  roleRef: { kind: string; name: string };
  subjects: { kind: string; name: string; namespace?: string }[];
}

/** Grants of the ServiceAccount `namespace/name` from the Roles/ClusterRoles bound to it in `docs`. */
export function grantsOf(docs: readonly Doc[], namespace: string, name: string): Grant[] {
  const bindings = docs
    .filter((d): d is Binding => d.kind === 'RoleBinding' || d.kind === 'ClusterRoleBinding')
    .filter((b) => b.subjects.some((s) => s.kind === 'ServiceAccount' && s.name === name && s.namespace === namespace));
  return bindings.flatMap((b) => {
    const role = docs.find(
      (d) =>
        d.kind === b.roleRef.kind &&
        d.metadata.name === b.roleRef.name &&
        (b.roleRef.kind === 'ClusterRole' || d.metadata.namespace === b.metadata.namespace),
    );
    const scope = b.kind === 'RoleBinding' ? (b.metadata.namespace ?? '') : '';
    return ((role?.rules ?? []) as Rule[]).flatMap((rule) =>
      rule.apiGroups.flatMap((group) =>
        rule.resources.flatMap((resource) =>
          rule.verbs.map((verb) => ({
            verb,
            resource: resourceName(group, resource),
            names: rule.resourceNames ?? [],
            namespace: scope,
          })),
        ),
      ),
    );
  });
}

function resourceName(group: string, resource: string): string {
  const [base, sub] = resource.split('/');
  const full = group ? `${base}.${group}` : (base ?? '');
  return sub ? `${full}/${sub}` : full;
}

export const grantText = (g: Grant) =>
  `${g.verb} ${g.resource}${g.names.length ? ` [${g.names.join(', ')}]` : ''}${g.namespace ? ` in ${g.namespace}` : ''}`;

/**
 * Whether the grant covers the request (same verb and resource, name among the names, namespace in scope). A
 * server-side apply that creates the object (PATCH answered 201) needs `create` as well as `patch`.
 */
export function covers(grant: Grant, request: AuditedRequest): boolean {
  const verb =
    grant.verb === request.verb || (grant.verb === 'create' && request.verb === 'patch' && request.code === 201);
  return (
    verb &&
    grant.resource === request.resource &&
    (grant.names.length === 0 || grant.names.includes(request.name)) &&
    (grant.namespace === '' || grant.namespace === request.namespace)
  );
}
