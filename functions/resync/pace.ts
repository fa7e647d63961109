import { RESYNC_DRIFT } from '../../shared/core/resync-reasons.ts';
import type { ResyncStep } from './decide.ts';

/** The longest gap between two drift checks of a tick: a small fleet's few checks go within a second or two. */
export const MAX_DRIFT_GAP_MS = 100;

/** One event of a tick and when it goes, in ms after the tick began. */
export interface PacedStep {
  step: ResyncStep;
  atMs: number;
}

/** PURE. When a tick's events go (ADR 97): the work waiting (objects not Ready, deleting ones, the release tick) at
 * once and first; the drift checks after it in their order, evenly over `spreadMs` and at most MAX_DRIFT_GAP_MS apart,
 * so a drift slot's reads never crowd the API servers all at once. `spreadMs` 0 sends everything at once. */
export function paceOf(steps: readonly ResyncStep[], spreadMs: number): PacedStep[] {
  const drift = steps.filter((s) => s.reason === RESYNC_DRIFT);
  const now = steps.filter((s) => s.reason !== RESYNC_DRIFT).map((step) => ({ step, atMs: 0 }));
  const gap = drift.length ? Math.min(Math.max(0, spreadMs) / drift.length, MAX_DRIFT_GAP_MS) : 0;
  return [...now, ...drift.map((step, i) => ({ step, atMs: Math.round(i * gap) }))];
}
