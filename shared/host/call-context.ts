// What a function call carries through its awaits (ADR 55): which function makes its requests, its span, how fresh
// its cached reads must be, the upstream step it is in. One AsyncLocalStorage holds all of it: on Node 22 every
// AsyncLocalStorage in use copies its value onto each promise the process creates, one copy per storage.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequeueReason } from '../core/upstream-names.ts';
import type { Freshness } from '../kube/freshness.ts';
import type { TraceContext } from './trace.ts';

/** A call's context, one entry per concern; each is set once at the call's start (shared/host/invoke.ts). */
export interface CallContext {
  /** The function whose call makes the requests (shared/kube/request-tally.ts). */
  readonly caller?: string;
  /** The call's span (shared/host/trace.ts). */
  readonly trace?: TraceContext;
  /** The call's lane, `user` or `background` (shared/host/lane.ts, ADR 72). */
  readonly lane?: string;
  /** What the call has seen (shared/kube/freshness.ts). */
  readonly freshness?: Freshness;
  /** The step the call is in, a record the call mutates (shared/host/steps.ts). */
  readonly steps?: { step?: RequeueReason };
  /** The write requests the call has sent (counted by shared/kube/client.ts). */
  readonly writes?: { count: number };
}

const current = new AsyncLocalStorage<CallContext>();

/** Runs `work` with the current context and `entries` on top of it. */
export const withinCall = <T>(entries: CallContext, work: () => Promise<T>): Promise<T> =>
  current.run({ ...current.getStore(), ...entries }, work);

/** The current call's context; outside a call, empty. */
export const callContext = (): CallContext => current.getStore() ?? {};

/** Counts a write request of the current call (outside a call: nothing happens). */
export function noteWrite(): void {
  const record = current.getStore()?.writes;
  if (record) record.count += 1;
}

/** Whether the current call has sent a write request; outside a call (nothing counted), true. */
export const hasWritten = (): boolean => (callContext().writes?.count ?? 1) > 0;
