// Why a `resync.due` was sent, as the CloudEvents extension `resyncreason` (ADR 27, 30): `pending` (not Ready) and
// `release` (reached by a release) are normal reconciles that may use what the function remembers; `drift` or none is a
// full check. Plain names, so decision code needs no event host (shared/host/events.ts re-exports them).
export const RESYNC_REASON = 'resyncreason';
export const RESYNC_PENDING = 'pending';
export const RESYNC_DRIFT = 'drift';
export const RESYNC_RELEASE = 'release';
