import type { CloudEvent } from 'cloudevents';
import { kindKey, revisionOf, withFreshness } from '../kube/freshness.ts';
import { asCaller, callerName, tallyCall } from '../kube/request-tally.ts';
import { Batches } from './batches.ts';
import { InvalidEventError, toLifecycleError, type LifecycleError } from './errors.ts';
import {
  isDriftCheck,
  keyText,
  objectKeyOf,
  printable,
  versionIn,
  type EventAttributes,
  type ObjectKey,
} from './events.ts';
import { laneOf } from './lane.ts';
import type { Logger } from './logger.ts';
import { inSpan, parseTraceparent, recordedTrace, startSpan, type TraceContext } from './trace.ts';
import { ANNOTATION, OUR_MANAGERS } from '../core/vocabulary.ts';
import type { RequeueReason } from '../core/upstream-names.ts';
import { withSteps } from './steps.ts';
import { callAttributes, exportCall } from './otel.ts';

/** One call of a function: the event, the object it points at, and a logger bound to both. */
export interface Invocation {
  event: EventAttributes;
  key: ObjectKey;
  log: Logger;
}

/** What every lifecycle function is: a name, the event types it accepts, and a handler. */
export interface LifecycleFunction {
  name: string;
  accepts: readonly string[];
  /** Events that point at no object (a PingSource tick): the key is empty. Default false. */
  keyless?: boolean;
  handle(invocation: Invocation): Promise<CloudEvent<unknown> | undefined>;
  /** Calls with the same batch key are one unit of work in this instance (shared/host/batches.ts, ADR 26): only for
   * handlers that never reply and whose outcome depends on what they read, not on which of the events came.
   * `settleMs`: how long an idle batch waits for more calls before it runs (0 = at once). */
  batchOf?(event: EventAttributes, key: ObjectKey): { batch: string; settleMs: number } | undefined;
  /** Calls that name one serial key (besides their object's own, which always runs one call at a time) run one after
   * another in this instance, batched ones included; one waits at most `waitMs` for the call before it, then runs
   * anyway (aggregate-status: the calls writing one Kyma's status, ADR 65). */
  serialOf?(event: EventAttributes, key: ObjectKey): { serial: string; waitMs: number } | undefined;
}

export type Outcome =
  | { status: 200; reply: CloudEvent<unknown> }
  | { status: 204 }
  | { status: number; error: LifecycleError; step?: RequeueReason };

/** Runs one invocation and maps every result to the reply contract: 204, one reply event, or the catalogue status of
 * the error. Never throws; logs once per call with outcome and duration. */
export async function invoke(fn: LifecycleFunction, event: EventAttributes, log: Logger): Promise<Outcome> {
  const started = performance.now();
  const span = startSpan(parentOf(event));
  let bound = log.child({ ceId: event.id, ceType: event.type, traceId: span.traceId, spanId: span.spanId });
  let outcome: Outcome;
  let step: RequeueReason | undefined;
  let exported: ReturnType<typeof exportCall>;
  try {
    if (event.specversion !== '1.0')
      throw new InvalidEventError(`unsupported specversion ${printable(event.specversion)}`);
    if (!fn.accepts.includes(event.type))
      throw new InvalidEventError(`${fn.name} does not accept events of type ${printable(event.type)}`);
    const key = fn.keyless ? { kind: '', apiVersion: '', namespace: '', name: '' } : objectKeyOf(event);
    if (!fn.keyless) bound = bound.child({ object: keyText(key) });
    exported = exportCall(fn.name, span, () => callAttributes(event, key));
    // Drift checks are counted apart, other calls by event: the bench tells installs from background checks.
    const caller = callerName(fn.name, isDriftCheck(event), event.type, key.kind);
    const work = () => {
      tallyCall(caller);
      return asCaller(caller, () =>
        inSpan(span, () => withSeen(event, key, () => fn.handle({ event, key, log: bound })), laneOf(event)),
      );
    };
    const batch = fn.keyless ? undefined : fn.batchOf?.(event, key);
    const serial = fn.keyless ? undefined : fn.serialOf?.(event, key);
    const inTurn = serial ? () => oneAtATime(fn, serial.serial, work, serial.waitMs) : work;
    // The step a call was in when it failed names its retry in the requeue metric (shared/host/steps.ts).
    const run = await withSteps(() =>
      batch
        ? batchesOf(fn).run(batch.batch, revisionOf(versionIn(event)) ?? 0n, inTurn, batch.settleMs)
        : oneAtATime(fn, fn.keyless ? '' : keyText(key), inTurn),
    );
    step = run.step;
    if ('thrown' in run) throw run.thrown;
    outcome = run.result ? { status: 200, reply: run.result } : { status: 204 };
  } catch (thrown) {
    const error = toLifecycleError(thrown);
    outcome = { status: error.status, error, ...(step ? { step } : {}) };
  }
  logOutcome(bound, outcome, performance.now() - started);
  const failed = 'error' in outcome ? outcome.error.message : undefined;
  exported?.(outcome.status, step ? { 'lifecycle.step': step } : {}, failed);
  return outcome;
}

/** Runs a call with what its event says it has seen (ADR 15): the object's resourceVersion (ApiServerSource data or
 * our `resourceversion` extension) and the `seenkind`/`seenversion` pair a fan-out passes on from its cause. */
function withSeen<T>(event: EventAttributes, key: ObjectKey, work: () => Promise<T>): Promise<T> {
  return withFreshness(
    work,
    key.kind ? kindKey(key.apiVersion, key.kind) : undefined,
    versionIn(event),
    typeof event.seenkind === 'string' && typeof event.seenversion === 'string'
      ? { kind: event.seenkind, resourceVersion: event.seenversion }
      : undefined,
  );
}

const running = new WeakMap<LifecycleFunction, Map<string, Promise<unknown>>>();
const batches = new WeakMap<LifecycleFunction, Batches>();

/** The batches of a function in this instance. */
export function batchesOf(fn: LifecycleFunction): Batches {
  let found = batches.get(fn);
  if (!found) batches.set(fn, (found = new Batches()));
  return found;
}

/** Calls of one function for one object run one after another in this instance, so one that read older state never
 * writes after one that read newer; other objects run concurrently, and across instances the broker orders (ADR 11).
 * `waitMs`: a call waits at most that long for the one before it (a serial key of several objects, ADR 65). */
function oneAtATime<T>(fn: LifecycleFunction, key: string, work: () => Promise<T>, waitMs?: number): Promise<T> {
  if (!key) return work();
  let chains = running.get(fn);
  if (!chains) running.set(fn, (chains = new Map()));
  // No timer when nothing runs before: the wait only bounds a call that is there.
  const before = chains.get(key);
  const turn = !before ? Promise.resolve() : waitMs === undefined ? before : atMost(before, waitMs);
  const current = turn.then(work, work);
  const tail = current.then(
    () => undefined,
    () => undefined,
  );
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return current;
}

/** Runs `work` in the turn of `fn`'s calls about `key` in this instance: a call that acts on other objects than its
 * own keeps ADR 11 for each (apply-remote's checks of a Kyma's modules, ADR 94). */
export const inTurnOf = <T>(fn: LifecycleFunction, key: ObjectKey, work: () => Promise<T>): Promise<T> =>
  oneAtATime(fn, keyText(key), work);

/** `before` settled, or `ms` passed: whichever comes first. */
function atMost(before: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()));
  return Promise.race([before, waited]).finally(() => clearTimeout(timer));
}

function logOutcome(log: Logger, outcome: Outcome, ms: number): void {
  const durationMs = Math.round(ms);
  if ('error' in outcome) {
    const { error } = outcome;
    const fields = {
      status: outcome.status,
      code: error.code,
      durationMs,
      err: { message: error.message, code: error.code },
    };
    if (error.code === 'LCM_ERR_NOT_YET_READY') log.info(fields, `requeue: ${error.message}`);
    else if (outcome.status < 500) log.warn(fields, error.message);
    else
      log.error(
        error.code === 'LCM_ERR_INTERNAL' ? { ...fields, err: { ...fields.err, stack: error.stack } } : fields,
        error.message,
      );
    return;
  }
  log.info(
    { status: outcome.status, durationMs, ...('reply' in outcome ? { replyType: outcome.reply.type } : {}) },
    'done',
  );
}

/** The trace a call continues (ADR 20): its event's `traceparent`, else the one recorded by our write the event is
 * about (ApiServerSource data); undefined = a new trace. */
function parentOf(event: EventAttributes): TraceContext | undefined {
  return (
    parseTraceparent(event.traceparent) ??
    recordedTrace((event as { data?: unknown }).data, OUR_MANAGERS, ANNOTATION.lastTrace)
  );
}
