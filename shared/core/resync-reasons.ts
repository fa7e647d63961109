// Why a `resync.due` was sent (ADR 27, 30), as the CloudEvents extension `resyncreason`: `drift` for a Ready object in
// its drift slot, `pending` for one not Ready (the safety net for lost events), `release` for a Kyma a
// ModuleReleaseMeta change reaches within the release budget — the last two are normal reconciles, which may rely on
// what the function remembers. Every other `resync.due` (the runtime watch, a ModuleTemplate fan-out, a hand replay)
// has none and is a full check, as a drift check is. Plain names, so decision code can use them without the event
// host (shared/host/events.ts re-exports them with the rest of the CloudEvent vocabulary).
export const RESYNC_REASON = 'resyncreason';
export const RESYNC_PENDING = 'pending';
export const RESYNC_DRIFT = 'drift';
export const RESYNC_RELEASE = 'release';
