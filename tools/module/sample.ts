import { stringify } from 'yaml';

export interface SampleModuleOptions {
  /** Module name (`^[a-z]{3,}(-[a-z]{3,})*$`); resource names and the CRD derive from it. */
  name: string;
  version: string;
  /** The manager's pods cannot be scheduled: the Deployment ends ProgressDeadlineExceeded after 5 s. */
  unschedulable?: boolean;
  /** Include a ConfigMap that exists only in this version (shows pruning on upgrade). */
  extraConfigMap?: string;
  /** The module's CRD is cluster-scoped (and so is its default CR). */
  clusterScoped?: boolean;
  /** The ModuleTemplate has no default CR (spec.data). */
  withoutDefaultCr?: boolean;
  /** API versions the module's CRD serves; the last one is the storage version and the default CR's (default v1alpha1). */
  apiVersions?: string[];
  /** The manager is a StatefulSet instead of a Deployment (readiness then follows its pods, upstream §4.6). */
  statefulSet?: boolean;
  /** The manager selects its pods by matchExpressions only (`app In (<name>-manager)`), no matchLabels. */
  selectorByExpressions?: boolean;
  /** Include a ClusterRole of this name whose rules name this module (two modules with the same name ship one object). */
  sharedClusterRole?: string;
  /** Further objects appended to the raw manifest as they are (e.g. Secrets the module ships). */
  extraObjects?: readonly object[];
}

const kindOf = (name: string) =>
  name
    .split('-')
    .map((p) => p[0]?.toUpperCase() + p.slice(1))
    .join('');
export const sampleGroup = (name: string) => `${name}.modules.kyma-project.io`;
export const sampleKind = (name: string) => kindOf(name);
export const sampleComponent = (name: string) => `kyma-project.io/module/${name}`;

/** The raw manifest of a small module: CRD, service account, manager Deployment, config (in kyma-system, which
 * the lifecycle manager itself ensures on every runtime). */
export function sampleRawManifest(opts: SampleModuleOptions): string {
  const kind = kindOf(opts.name);
  const group = sampleGroup(opts.name);
  const labels = { app: `${opts.name}-manager` };
  const docs: object[] = [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${opts.name}s.${group}` },
      spec: {
        group,
        scope: opts.clusterScoped ? 'Cluster' : 'Namespaced',
        names: { kind, plural: `${opts.name}s`, singular: opts.name, listKind: `${kind}List` },
        versions: (opts.apiVersions ?? ['v1alpha1']).map((name, i, all) => ({
          name,
          served: true,
          storage: i === all.length - 1,
          subresources: { status: {} },
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        })),
      },
    },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `${opts.name}-manager`, namespace: 'kyma-system' } },
    {
      apiVersion: 'apps/v1',
      kind: opts.statefulSet ? 'StatefulSet' : 'Deployment',
      metadata: { name: `${opts.name}-manager`, namespace: 'kyma-system', labels },
      spec: {
        replicas: 1,
        selector: opts.selectorByExpressions
          ? { matchExpressions: [{ key: 'app', operator: 'In', values: [labels.app] }] }
          : { matchLabels: labels },
        ...(opts.statefulSet
          ? { serviceName: `${opts.name}-manager` }
          : opts.unschedulable
            ? { progressDeadlineSeconds: 5 }
            : {}),
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: `${opts.name}-manager`,
            containers: [
              {
                name: 'manager',
                image: `europe-docker.pkg.dev/kyma-project/prod/${opts.name}-manager:${opts.version}`,
              },
            ],
            ...(opts.unschedulable ? { nodeSelector: { 'kyma-project.io/no-such-node': 'true' } } : {}),
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${opts.name}-config`, namespace: 'kyma-system' },
      data: { version: opts.version },
    },
    ...(opts.sharedClusterRole
      ? [
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRole',
            metadata: { name: opts.sharedClusterRole, labels: { 'shipped-by': opts.name } },
            rules: [{ apiGroups: [group], resources: [`${opts.name}s`], verbs: ['get', 'list'] }],
          },
        ]
      : []),
    ...(opts.extraConfigMap
      ? [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: opts.extraConfigMap, namespace: 'kyma-system' },
            data: { only: opts.version },
          },
        ]
      : []),
    ...(opts.extraObjects ?? []),
  ];
  return docs.map((d) => stringify(d)).join('---\n');
}

/** The module's default CR (the ModuleTemplate's spec.data); its name defaults to the Manifest name. */
export function sampleDefaultCr(name: string, apiVersion = 'v1alpha1'): Record<string, unknown> {
  return { apiVersion: `${sampleGroup(name)}/${apiVersion}`, kind: kindOf(name), metadata: {}, spec: { replicas: 1 } };
}
