import type { ManifestTarget } from '../../shared/core/in-cluster.ts';
import { isUnmanaged, type Manifest } from '../../shared/core/manifest.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';

/** What a call of apply-remote knows of its Manifest; each observing step adds what it saw. */
export interface ApplyView {
  /** The Manifest from the watch cache, as fresh as the event; absent: gone. */
  manifest: Manifest | undefined;
  /** The event is the Manifest's deletion. */
  deleted: boolean;
  /** The objects of a gone Manifest were offered to the modules that ship them too (ADR 33). */
  handedOver?: boolean | undefined;
  /** The event is the echo of this instance's own guarded status write (ADR 25). */
  echo: boolean;
  /** Where its module goes: the Kyma's runtime, the KCP itself (ADR 21), or nowhere and why. */
  target: ManifestTarget | undefined;
  /** The runtime's client, once looked up: usable, no kubeconfig Secret, or failing and why. */
  access?: 'usable' | { missing: string } | { failed: string } | undefined;
  /** Once checked: why its Kyma disowned it, or '' when it did not. */
  orphan?: string | undefined;
}

export type ApplyStep =
  | { step: 'HandOverObjects' }
  | { step: 'Ignore'; why: 'gone' | 'skip-reconciliation' | 'own status write' }
  | { step: 'ConnectRuntime' }
  | { step: 'ReportRuntimeUnusable'; message: string }
  | { step: 'Unmanage' }
  | { step: 'Uninstall' }
  | { step: 'RefuseTarget'; message: string }
  | { step: 'ReportSecretMissing'; missing: string }
  | { step: 'CheckOrphan' }
  | { step: 'ReportOrphan'; message: string }
  | { step: 'Install' };

/** Steps that observe: the decision is asked again after them. Every other step ends the call. */
export const OBSERVING: ReadonlySet<ApplyStep['step']> = new Set(['HandOverObjects', 'ConnectRuntime', 'CheckOrphan']);

/** PURE. The next step for a Manifest, in order: a gone Manifest's objects handed over; nothing for one that skips
 * reconciliation or an echo of our write; the runtime's client; then unmanage, uninstall, the refused target, the
 * missing Secret, the orphan (its Kyma checked first), install. */
export function nextApplyStep(view: ApplyView): ApplyStep {
  const { manifest, access } = view;
  if (!manifest)
    return view.deleted && !view.handedOver ? { step: 'HandOverObjects' } : { step: 'Ignore', why: 'gone' };
  if (manifest.metadata.labels?.[LABEL.skipReconciliation] === 'true')
    return { step: 'Ignore', why: 'skip-reconciliation' };
  if (view.echo) return { step: 'Ignore', why: 'own status write' };
  if (!access) return { step: 'ConnectRuntime' };
  if (typeof access === 'object' && 'failed' in access)
    return { step: 'ReportRuntimeUnusable', message: access.failed };
  if (isUnmanaged(manifest)) return { step: 'Unmanage' };
  if (manifest.metadata.deletionTimestamp) return { step: 'Uninstall' };
  if (view.target && 'refused' in view.target) return { step: 'RefuseTarget', message: view.target.refused };
  if (typeof access === 'object') return { step: 'ReportSecretMissing', missing: access.missing };
  // A Manifest of its own (labelled in-cluster, no Kyma) belongs to whoever created it: there is no Kyma to orphan it.
  if (!manifest.metadata.labels?.[LABEL.kymaName]) return { step: 'Install' };
  if (view.orphan === undefined) return { step: 'CheckOrphan' };
  return view.orphan ? { step: 'ReportOrphan', message: view.orphan } : { step: 'Install' };
}
