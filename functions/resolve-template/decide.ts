import type { Kyma, SpecSource } from '../../shared/core/kyma.ts';
import type { EffectiveSpec } from './remote-kyma.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { isInClusterKyma } from '../../shared/core/in-cluster.ts';
import { inputsOf, type Settled } from './inputs.ts';

/** PURE. Where the module list came from, with the runtime Kyma's generation it was taken from (ADR 43), and the
 * digest of the Kyma's own inputs it was resolved from (ADR 66) — not while a runtime's list is the KCP spec only for
 * want of a Kyma CRD there: the status write after aggregate-status's CRD sync must reach this function again. */
export function specSourceOf(effective: Pick<EffectiveSpec, 'from' | 'spec' | 'remote'>, kyma: Kyma): SpecSource {
  const generation = effective.from === 'runtime' ? effective.remote?.metadata.generation : undefined;
  const settles = effective.from === 'runtime' || isInClusterKyma(kyma);
  return {
    from: effective.from,
    channel: effective.spec.channel,
    ...(generation === undefined ? {} : { generation }),
    ...(settles ? { inputs: inputsOf(kyma.metadata) } : {}),
  };
}

/** What resolve-template knows in a call; each step adds what it did or saw. */
export interface ResolveView {
  kind: string;
  /** A ModuleReleaseMeta event: whether a deleted mandatory module's release took the call (ReleaseMandatory). */
  mandatoryReleased?: boolean | undefined;
  /** A Kyma event whose own object (the event's data) leaves nothing to do: then the Kyma is not even read (ADR 66). */
  settled?: Settled | undefined;
  /** The Kyma as read (watch cache), on Kyma events. */
  kyma?: Kyma | undefined;
  metadataEnsured?: boolean | undefined;
  /** The module list, once taken: whether this call created the runtime Kyma, and whether the Kyma went meanwhile. */
  list?: { created: boolean; gone: boolean } | undefined;
  createdReported?: boolean | undefined;
  /** The resolution, once made: whether it (or where the list came from) differs from the status. */
  resolution?: { changed: boolean } | undefined;
  written?: boolean | undefined;
  /** A drift check (ADR 95): its reply is left out when its last reply, within 1.5 drift periods, saw the same. */
  driftCheck?: boolean | undefined;
  lastReply?: { same: boolean } | undefined;
}

export type ResolveStep =
  | { step: 'ReleaseMandatory' }
  | { step: 'FanOut' }
  | {
      step: 'Ignore';
      why:
        | 'gone'
        | 'deleting'
        | 'skip-reconciliation'
        | 'gone meanwhile'
        | 'mandatory module released'
        | 'unchanged since its last reply'
        | Settled;
    }
  | { step: 'EnsureMetadata' }
  | { step: 'TakeModuleList' }
  | { step: 'ReportRuntimeKymaCreated' }
  | { step: 'Resolve' }
  | { step: 'WriteResolution' }
  | { step: 'CompareWithLastReply' }
  | { step: 'ReplyResolved' };

/** Steps after which a call is over. */
export const FINAL: ReadonlySet<ResolveStep['step']> = new Set(['FanOut', 'Ignore', 'ReplyResolved']);

/** PURE. The next step: on a ModuleTemplate/ModuleReleaseMeta event, a deleted mandatory module's release, else the
 * fan-out; on a Kyma event, nothing if settled by its data, gone, deleting or skipping; finalizer and label; the module
 * list; nothing if gone meanwhile; the resolution, written when changed; the reply (a drift check's maybe not, ADR 95). */
export function nextResolveStep(view: ResolveView): ResolveStep {
  if (view.kind === 'ModuleTemplate' || view.kind === 'ModuleReleaseMeta') {
    if (view.kind === 'ModuleReleaseMeta' && view.mandatoryReleased === undefined) return { step: 'ReleaseMandatory' };
    return view.mandatoryReleased ? { step: 'Ignore', why: 'mandatory module released' } : { step: 'FanOut' };
  }
  const { kyma, list } = view;
  if (view.settled) return { step: 'Ignore', why: view.settled };
  if (!kyma) return { step: 'Ignore', why: 'gone' };
  if (kyma.metadata.deletionTimestamp) return { step: 'Ignore', why: 'deleting' };
  if (kyma.metadata.labels?.[LABEL.skipReconciliation] === 'true')
    return { step: 'Ignore', why: 'skip-reconciliation' };
  if (!view.metadataEnsured) return { step: 'EnsureMetadata' };
  if (!list) return { step: 'TakeModuleList' };
  if (list.created && !view.createdReported) return { step: 'ReportRuntimeKymaCreated' };
  if (list.gone) return { step: 'Ignore', why: 'gone meanwhile' };
  if (!view.resolution) return { step: 'Resolve' };
  if (view.resolution.changed && !view.written) return { step: 'WriteResolution' };
  if (view.driftCheck && !view.written && !view.lastReply) return { step: 'CompareWithLastReply' };
  return view.lastReply?.same ? { step: 'Ignore', why: 'unchanged since its last reply' } : { step: 'ReplyResolved' };
}
