// The error catalogue: every outcome of a function invocation that is not a success maps to exactly one of
// these, and each carries the HTTP status Knative's delivery acts on (5xx, 404, 408, 409, 429 are retried;
// other 4xx are not).
import type { RequeueReason } from '../core/upstream-names.ts';
import { isRefusedWhileTerminating } from '../kube/errors.ts';

export type ErrorCode =
  'LCM_ERR_EVENT_INVALID' | 'LCM_ERR_CONFLICT' | 'LCM_ERR_TRANSIENT' | 'LCM_ERR_NOT_YET_READY' | 'LCM_ERR_INTERNAL';

export class LifecycleError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  constructor(code: ErrorCode, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.retryable = status >= 500 || [404, 408, 409, 429].includes(status);
  }
}

/** Not a CloudEvent, missing extensions, unknown type, bad data: 400, never retried. */
export class InvalidEventError extends LifecycleError {
  constructor(message: string) {
    super('LCM_ERR_EVENT_INVALID', 400, message);
  }
}

/** The API server refused a write on a stale resourceVersion: 409, retried after a re-read. */
export class ConflictError extends LifecycleError {
  constructor(message: string, cause?: unknown) {
    super('LCM_ERR_CONFLICT', 409, message, { cause });
  }
}

/** A cluster or the registry is unreachable, overloaded or answered 5xx: 503, retried with backoff. */
export class TransientError extends LifecycleError {
  constructor(message: string, cause?: unknown) {
    super('LCM_ERR_TRANSIENT', 503, message, { cause });
  }
}

/** The step was done and recorded but its outcome is not there yet (a rollout, a pruned object terminating): 503, so
 * the delivery is retried with backoff (ADR 6). `requeueReason`: upstream's name for it in the requeue metric. */
export class NotYetReadyError extends LifecycleError {
  readonly requeueReason: RequeueReason | undefined;
  constructor(message: string, requeueReason?: RequeueReason) {
    super('LCM_ERR_NOT_YET_READY', 503, message);
    this.requeueReason = requeueReason;
  }
}

/** Anything unexpected, after normalisation: 500, retried, then dead-lettered. */
export class InternalError extends LifecycleError {
  constructor(message: string, cause?: unknown) {
    super('LCM_ERR_INTERNAL', 500, message, { cause });
  }
}

/** Turns any thrown value into a catalogue error (unknown throws become InternalError). */
export function toLifecycleError(error: unknown): LifecycleError {
  if (error instanceof LifecycleError) return error;
  const status = (error as { status?: unknown }).status;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 409) return new ConflictError(message, error);
  // An object vanished between our read and our write: retried, and the re-read ends the story.
  if (status === 404) return new ConflictError(`object changed while being processed: ${message}`, error);
  if (typeof status === 'number' && (status >= 500 || status === 429)) return new TransientError(message, error);
  if (isConnectionError(error)) return new TransientError(message, error);
  // A write refused while a CRD or namespace it needs terminates: retried once the deletion ended.
  if (isRefusedWhileTerminating(error)) return new NotYetReadyError(message);
  return new InternalError(message, error);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // TLS: the server is not who the kubeconfig trusts (a wrong CA, an expired or mismatched serving certificate)
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return (typeof code === 'string' && CONNECTION_CODES.has(code)) || /timed out|socket hang up/i.test(String(error));
}

/** A runtime that cannot be used with the credentials at hand: 401/403, no connection or an untrusted server (the client
 * is evicted). A 403 while a CRD or namespace terminates is none: the object it needs is on its way out. */
export function isRuntimeUnreachable(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return ((status === 401 || status === 403) && !isRefusedWhileTerminating(error)) || isConnectionError(error);
}
