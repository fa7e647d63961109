// Why a `resync.due` was sent, as the CloudEvents extension `resyncreason` (ADR 27, 30): `pending` (not Ready) and
// `release` (reached by a release) are normal reconciles that may use what the function remembers; `drift` or none is a
// full check. Plain names, so decision code needs no event host (shared/host/events.ts re-exports them).
export const RESYNC_REASON = 'resyncreason';
export const RESYNC_PENDING = 'pending';
export const RESYNC_DRIFT = 'drift';
export const RESYNC_RELEASE = 'release';

/** How far back a drift check takes this instance's last check of what users do not edit on a runtime (the catalog
 * copies, the runtime namespace's labels) as current: 1.5 drift periods, so every other drift check reads them (ADR 90). */
export const seldomCheckedWithinMs = (driftPeriodMs: number): number => 1.5 * driftPeriodMs;
