// Labels, annotations, finalizers and field managers, with the upstream names so that existing tooling works.

export const GROUP = 'operator.kyma-project.io';
export const API_VERSION = `${GROUP}/v1beta2`;
export const KCP_NAMESPACE = 'kcp-system';
export const REMOTE_NAMESPACE = 'kyma-system';
export const DEFAULT_CHANNEL = 'regular';

export const LABEL = {
  managedBy: `${GROUP}/managed-by`,
  kymaName: `${GROUP}/kyma-name`,
  moduleName: `${GROUP}/module-name`,
  channel: `${GROUP}/channel`,
  controllerName: `${GROUP}/controller-name`,
  mandatoryModule: `${GROUP}/mandatory-module`,
  skipReconciliation: `${GROUP}/skip-reconciliation`,
  beta: `${GROUP}/beta`,
  internal: `${GROUP}/internal`,
  /** `"true"` on a Kyma: single-cluster mode, its modules go into the control-plane cluster itself (ADR 21). */
  inCluster: `${GROUP}/in-cluster`,
  /** The runtime's instance id, set by the provisioning broker; upstream's Kyma metrics are labelled with it. */
  instanceId: 'kyma-project.io/instance-id',
  appComponent: 'app.kubernetes.io/component',
  appPartOf: 'app.kubernetes.io/part-of',
} as const;

export const ANNOTATION = {
  ocmComponentName: `${GROUP}/ocm-component-name`,
  fqdn: `${GROUP}/fqdn`,
  isUnmanaged: `${GROUP}/is-unmanaged`,
  isClusterScoped: `${GROUP}/is-cluster-scoped`,
  ownedBy: `deprecated-${GROUP}/owned-by`,
  disclaimer: `${GROUP}/managed-by-reconciler-disclaimer`,
  syncOciRef: 'sync-oci-ref',
  /** On a Manifest: the CRDs its upgrades may prune with their custom resources (the Kyma module's allowCrdPrune,
   * comma-separated; issue 34). */
  allowCrdPrune: `${GROUP}/allow-crd-prune`,
  /** The runtime's domain on a KCP Kyma (shoot = its first DNS label), set by the provisioning broker. */
  skrDomain: 'skr-domain',
  /** Hash of what the lifecycle manager last applied to an object: the same again is not re-applied (docs/adr/0014). */
  appliedHash: `${GROUP}/applied-hash`,
  /** The traceparent of the call that last wrote a Manifest's spec (render-manifest; status writers record theirs in
   * status.lastTrace), so the call reacting to that write continues the trace (ADR 20). */
  lastTrace: `${GROUP}/last-trace`,
  /** `user` on a Manifest whose spec a call in the user lane wrote last (status writers: status.lastLane), so the
   * calls reacting to that write keep the lane (ADR 72). */
  lastLane: `${GROUP}/last-lane`,
  /** When a CRD with accepted names but never established was last nudged to be established (shared/kube/crd-nudge.ts). */
  establishNudge: `${GROUP}/establish-nudge`,
  /** `"true"` on a Secret of the `deployer` module (restricted): its data comes from the KCP Secret of the same name
   * (shared/render/kcp-data.ts, as upstream). */
  injectDataFromKcp: `${GROUP}/inject-data-from-kcp`,
} as const;

export const MANAGED_BY_KCP = 'lifecycle-manager';
export const MANAGED_BY_RUNTIME = 'kyma';
export const DISCLAIMER =
  'DO NOT EDIT - This resource is managed by Kyma.\n' +
  'Any modifications are discarded and the resource is reverted to the original state.';

export const FINALIZER = {
  kyma: `${GROUP}/Kyma`,
  purge: `${GROUP}/purge-finalizer`,
  declarative: 'declarative.kyma-project.io/finalizer',
  labelRemoval: 'label-removal-finalizer',
  resource: 'resource.kyma-project.io/finalizer',
  mandatory: `${GROUP}/mandatory-module`,
} as const;

export const FIELD_MANAGER = {
  /** Kyma status (state, conditions, module states; aggregate-status) and Manifest spec, as upstream. */
  lifecycleManager: 'lifecycle-manager',
  /** The resolution part of Kyma status.modules[] (resolve-template). */
  resolution: 'lifecycle-manager-resolution',
  /** Module resources on runtimes, Manifest status and finalizers. */
  applier: 'declarative.kyma-project.io/applier',
  /** The default module CR on the runtime. */
  defaultCr: 'resource.kyma-project.io/finalizer',
  /** Kyma status while it is being deleted (purge). */
  purge: 'lifecycle-manager-purge',
} as const;

/** The User-Agent of our API requests: the field manager the API server records for our non-apply writes
 * (finalizer patches, creates, deletes). */
export const USER_AGENT = 'kyma-lifecycle-manager';

/** Every field manager of ours on KCP objects: a write by one of them continues the writer's trace (ADR 20). */
export const OUR_MANAGERS: readonly string[] = [...Object.values(FIELD_MANAGER), USER_AGENT];
