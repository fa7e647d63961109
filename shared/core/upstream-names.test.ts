import { describe, expect, it } from 'vitest';
import { UPSTREAM_EVENTS, UPSTREAM_REQUEUE_REASONS } from './upstream-names.ts';

// As the behaviour reference of upstream c5b83f1 lists them (§7 "Metrics and events", §2.14 and §4.14).
const UPSTREAM_KYMA_EVENTS =
  'MetricsError, UpdateSpecError, UpdateStatusError, PatchStatus, RemoteInstallation, MetadataSynchronization, StatusSynchronization, ' +
  'SetKcpKymaStateDeleting, SetSkrKymaStateDeleting, DeleteManifests, DeleteCertificateSetup, DeleteSkrWebhookResources, DeleteSkrModuleTemplateCrd, ' +
  'DeleteSkrModuleReleaseMetaCrd, DeleteSkrKyma, DeleteSkrKymaCrd, DeleteMetrics, EnsureManifestDeletion, DropKymaFinalizer, KymaDeletionStuck';
const UPSTREAM_MANIFEST_EVENTS = 'UpdateObject, PatchStatus, PatchObject';
const UPSTREAM_KYMA_REQUEUES =
  'kyma_under_deletion_with_no_access_secret, kyma_status_update_to_deleting, labels_and_finalizers_update, crds_sync, ' +
  'image_pull_secret_sync, manifest_reconciliation, module_catalog_sync, skr_webhook_installation, initial_state_handling, sync_context_retrieval, ' +
  'remote_kyma_deletion, spec_replacement_from_remote, status_sync_to_remote, processing_kyma_state, finalizers_removal_from_remote_kyma, ' +
  'remote_module_catalog_deletion, manifest_crs_cleanup, kyma_deletion, kyma_retrieval, kyma_unauthorized';
const UPSTREAM_MANIFEST_REQUEUES =
  'manifest_retrieval, manifest_initialize, manifest_add_finalizer, manifest_parse_spec, manifest_update_synced_oci_ref, ' +
  'manifest_init_synced_oci_ref, manifest_client_init, manifest_render_resources, manifest_prune_diff_not_finished, manifest_prune_diff, ' +
  'manifest_pre_delete_enqueue_required, manifest_pre_delete, manifest_sync_resources_enqueue_required, manifest_sync_resources, manifest_sync_state, ' +
  'manifest_unauthorized, manifest_reconcile_finished, manifest_unmanaged_update, manifest_labels_removal, manifest_orphaned';

const names = (list: string) => list.split(', ');

describe("upstream's names (ADR 40)", () => {
  it('accounts for every Event reason upstream emits about Kymas and Manifests, and for no other', () => {
    expect(Object.keys(UPSTREAM_EVENTS).sort()).toEqual(
      [...new Set([...names(UPSTREAM_KYMA_EVENTS), ...names(UPSTREAM_MANIFEST_EVENTS)])].sort(),
    );
  });

  it('accounts for every requeue reason upstream counts, and for no other', () => {
    expect(Object.keys(UPSTREAM_REQUEUE_REASONS).sort()).toEqual(
      [...names(UPSTREAM_KYMA_REQUEUES), ...names(UPSTREAM_MANIFEST_REQUEUES)].sort(),
    );
  });

  it('says for each either who emits it and when, or why it does not apply', () => {
    for (const [name, entry] of [...Object.entries(UPSTREAM_EVENTS), ...Object.entries(UPSTREAM_REQUEUE_REASONS)]) {
      const said =
        'notApplicable' in entry
          ? entry.notApplicable
          : `${'emittedBy' in entry ? entry.emittedBy : entry.countedBy} ${'when' in entry ? entry.when : entry.step}`;
      expect(said.length, name).toBeGreaterThan(10);
    }
    const applicable = Object.values(UPSTREAM_EVENTS).filter((e) => !('notApplicable' in e)).length;
    expect(applicable, "most of upstream's Events are emitted").toBeGreaterThanOrEqual(17);
  });
});
