// Upstream's Event reasons and requeue-metric reasons, each emitted here (by which function, when) or not applicable
// (why), so dashboards and alerts built for upstream keep working (ADR 40); upstream-names.test.ts checks them. Pure.

/** Upstream's Event reasons about Kymas and Manifests → who emits them here, or why none does. */
export const UPSTREAM_EVENTS = {
  // Kyma
  MetricsError: {
    emittedBy: 'aggregate-status',
    when: 'a status change of a Kyma without the skr-domain annotation or the kyma-project.io/instance-id label its metrics need',
  },
  UpdateSpecError: { emittedBy: 'resolve-template', when: "the Kyma's finalizer or labels could not be written" },
  UpdateStatusError: {
    notApplicable:
      "the functions never Update a Kyma status; a failed status write is PatchStatus, as upstream's current code",
  },
  PatchStatus: {
    emittedBy: 'aggregate-status (Kyma), apply-remote (Manifest)',
    when: 'a status write failed other than by a conflict (409, retried) or the object being gone',
  },
  RemoteInstallation: { emittedBy: 'resolve-template', when: 'it created the runtime Kyma from the KCP spec' },
  MetadataSynchronization: {
    emittedBy: 'resolve-template',
    when: "the runtime Kyma's labels and owned-by annotation could not be written",
  },
  StatusSynchronization: {
    emittedBy: 'aggregate-status',
    when: 'the status could not be mirrored to the runtime Kyma',
  },
  SetKcpKymaStateDeleting: { emittedBy: 'purge', when: "a Kyma's deletion started" },
  SetSkrKymaStateDeleting: {
    emittedBy: 'purge',
    when: 'the runtime Kyma was set Deleting, as soon as the runtime could be read',
  },
  DeleteManifests: { emittedBy: 'purge', when: "it deleted the Kyma's Manifests" },
  DeleteCertificateSetup: {
    notApplicable:
      "the functions make no certificates: the runtime watch needs none (ADR 9); upstream's are cleaned up by the migration guide",
  },
  DeleteSkrWebhookResources: {
    notApplicable:
      "the functions install no webhook on runtimes; upstream's is removed at the takeover (Event UpstreamWatcherRemoved, ADR 40)",
  },
  DeleteSkrModuleTemplateCrd: { emittedBy: 'purge', when: "it deleted the runtime's ModuleTemplate CRD" },
  DeleteSkrModuleReleaseMetaCrd: { emittedBy: 'purge', when: "it deleted the runtime's ModuleReleaseMeta CRD" },
  DeleteSkrKyma: { emittedBy: 'purge', when: 'it deleted the runtime Kyma' },
  DeleteSkrKymaCrd: { emittedBy: 'purge', when: "it deleted the runtime's Kyma CRD" },
  DeleteMetrics: {
    notApplicable:
      'the functions keep no metric series per Kyma: the fleet component computes them from the Kymas that exist',
  },
  EnsureManifestDeletion: {
    emittedBy: 'purge',
    when: 'a deleting Kyma waits for its Manifests (Warning naming what blocks)',
  },
  DropKymaFinalizer: { emittedBy: 'purge', when: "a Kyma's deletion finished" },
  KymaDeletionStuck: {
    emittedBy: 'purge',
    when: 'a deleting Kyma waits only for finalizers the lifecycle manager does not own',
  },
  // Manifest
  UpdateObject: {
    emittedBy: 'apply-remote',
    when: "a Manifest's finalizers could not be removed or its sync-oci-ref not updated",
  },
  PatchObject: { emittedBy: 'apply-remote', when: "a Manifest's finalizers could not be added" },
} as const satisfies Record<string, { emittedBy: string; when: string } | { notApplicable: string }>;

export type UpstreamEventReason = keyof typeof UPSTREAM_EVENTS;

/** Upstream's requeue reasons (`lifecycle_mgr_requeue_reason_total{requeue_reason}`) → the step of ours that counts
 * its retries under that name, or why none does. */
export const UPSTREAM_REQUEUE_REASONS = {
  // Kyma controller
  kyma_under_deletion_with_no_access_secret: {
    countedBy: 'purge',
    step: 'a deleting Kyma whose kubeconfig Secret is missing or unusable',
  },
  kyma_status_update_to_deleting: { countedBy: 'purge', step: 'setting the state Deleting' },
  labels_and_finalizers_update: {
    countedBy: 'resolve-template, purge',
    step: "writing the Kyma's finalizer and labels, dropping its finalizer",
  },
  crds_sync: { countedBy: 'aggregate-status', step: 'the lifecycle CRDs on the runtime' },
  image_pull_secret_sync: { countedBy: 'aggregate-status', step: 'the image pull Secret on the runtime' },
  manifest_reconciliation: {
    countedBy: 'resolve-template, render-manifest',
    step: 'resolving the modules and writing their Manifests',
  },
  module_catalog_sync: { countedBy: 'aggregate-status', step: 'the module catalog on the runtime' },
  skr_webhook_installation: { notApplicable: 'the functions install no webhook (ADR 9)' },
  initial_state_handling: {
    notApplicable: 'a new Kyma is not written Processing first: its first status is its aggregated state (ADR 26)',
  },
  sync_context_retrieval: {
    countedBy: 'every function that reaches a runtime',
    step: 'a runtime client from the kubeconfig Secret, a runtime not reachable',
  },
  remote_kyma_deletion: { countedBy: 'purge', step: 'deleting the runtime Kyma' },
  spec_replacement_from_remote: {
    countedBy: 'resolve-template',
    step: 'reading, creating or labelling the runtime Kyma',
  },
  status_sync_to_remote: { countedBy: 'aggregate-status', step: 'mirroring the status to the runtime Kyma' },
  processing_kyma_state: { countedBy: 'aggregate-status', step: 'aggregating and writing the Kyma status' },
  finalizers_removal_from_remote_kyma: { notApplicable: 'the runtime Kyma carries no finalizer of the functions' },
  remote_module_catalog_deletion: { countedBy: 'purge', step: 'deleting the catalog copies and CRDs on the runtime' },
  manifest_crs_cleanup: { countedBy: 'purge', step: 'stripping finalizers of module CRs stuck in deletion' },
  kyma_deletion: { countedBy: 'purge', step: 'any other deletion step, waiting for the Manifests' },
  kyma_retrieval: { countedBy: 'resync', step: 'reading the Kymas and Manifests due' },
  kyma_unauthorized: {
    notApplicable:
      'refused runtime credentials count as sync_context_retrieval (the kubeconfig Secret is the only credential)',
  },
  // Manifest controller
  manifest_retrieval: {
    notApplicable: "a Manifest is read from the watch cache; a failed read is the cache's, retried there",
  },
  manifest_initialize: {
    notApplicable: "a Manifest's status is not initialised separately: its first status is its state",
  },
  manifest_add_finalizer: { countedBy: 'apply-remote', step: "adding the Manifest's finalizers" },
  manifest_parse_spec: { countedBy: 'apply-remote', step: 'pulling the layer named by the spec' },
  manifest_update_synced_oci_ref: { countedBy: 'apply-remote', step: 'recording the installed layer in sync-oci-ref' },
  manifest_init_synced_oci_ref: {
    notApplicable: 'render-manifest creates a Manifest with its sync-oci-ref in the same write',
  },
  manifest_client_init: { notApplicable: 'counted as sync_context_retrieval, as for Kymas' },
  manifest_render_resources: { countedBy: 'apply-remote', step: "rendering the module's objects" },
  manifest_prune_diff_not_finished: { countedBy: 'apply-remote', step: 'waiting until pruned objects are gone' },
  manifest_prune_diff: { countedBy: 'apply-remote', step: 'pruning what a new version dropped' },
  manifest_pre_delete_enqueue_required: {
    countedBy: 'apply-remote',
    step: "a removal waiting for user CRs or the module's objects to go",
  },
  manifest_pre_delete: { countedBy: 'apply-remote', step: 'removing a module' },
  manifest_sync_resources_enqueue_required: { countedBy: 'apply-remote', step: 'waiting for the module to roll out' },
  manifest_sync_resources: { countedBy: 'apply-remote', step: "applying the module's objects and default CR" },
  manifest_sync_state: { countedBy: 'apply-remote', step: 'writing the Manifest status' },
  manifest_unauthorized: {
    notApplicable: 'counted as sync_context_retrieval (the kubeconfig Secret is the only credential)',
  },
  manifest_reconcile_finished: {
    notApplicable: 'upstream counts its periodic requeue; the functions have none (the resync sends events)',
  },
  manifest_unmanaged_update: { countedBy: 'apply-remote', step: 'unmanaging a module' },
  manifest_labels_removal: { countedBy: 'apply-remote', step: 'removing managed-by labels of an unmanaged module' },
  manifest_orphaned: { countedBy: 'apply-remote', step: 'an orphaned Manifest' },
} as const satisfies Record<string, { countedBy: string; step: string } | { notApplicable: string }>;

/** A requeue reason the functions count (one of upstream's). */
export type RequeueReason = {
  [R in keyof typeof UPSTREAM_REQUEUE_REASONS]: (typeof UPSTREAM_REQUEUE_REASONS)[R] extends { countedBy: string }
    ? R
    : never;
}[keyof typeof UPSTREAM_REQUEUE_REASONS];
