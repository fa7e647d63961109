// What a plan answers: per Kyma and module the outcome, and for those that touch their runtime the dry-run diff (or
// the sampled Kyma with the same change). The same shape for the CLI's --output json and the fleet page's /api/plan.
import type { Outcome } from './classify.ts';
import type { RuntimeDiff } from './runtime-diff.ts';

export interface PlanRow {
  kyma: string;
  module: string;
  outcome: Outcome;
  from: string;
  to: string;
  /** resolve-template's message after the change ('' when it has none). */
  message: string;
  /** Dry-run result, `sameAs` a sampled Kyma, `error` when the runtime could not be asked, absent when not needed. */
  runtime?: RuntimeDiff | { sameAs: string } | { error: string };
}

export interface PlanReport {
  /** The change, e.g. `ModuleReleaseMeta kcp-system/papa: channels regular=2.0.0`. */
  change: string;
  namespace: string;
  /** Kymas that use a changed module. */
  kymas: number;
  /** Of those, Kymas the change leaves as they are. */
  unchanged: number;
  rows: PlanRow[];
  /** Runtime dry-runs made (sampling makes this smaller than the rows that touch a runtime). */
  dryRuns: number;
  seconds: number;
}
