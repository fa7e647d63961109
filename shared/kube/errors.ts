/** An error answer of a Kubernetes API server: HTTP status and the Status object's reason and message. */
export class KubeApiError extends Error {
  readonly status: number;
  readonly reason: string;
  constructor(status: number, reason: string, message: string) {
    super(message);
    this.name = 'KubeApiError';
    this.status = status;
    this.reason = reason;
  }
}

export const isNotFound = (e: unknown) => e instanceof KubeApiError && e.status === 404;
export const isConflict = (e: unknown) => e instanceof KubeApiError && e.status === 409;
/** A 403 (405 from older API servers) answered while what the request needs is being deleted (a terminating CRD or
 * namespace): no credential problem, and over once the deletion ends. */
export const isRefusedWhileTerminating = (e: unknown) =>
  e instanceof KubeApiError &&
  (e.status === 403 || e.status === 405) &&
  /while custom resource definition is terminating|because it is being terminated/.test(e.message);

/** Builds the error from a response body, keeping only the Status message — never request headers or the request
 * body, so no credential can travel into logs or status through it. */
export function apiErrorFrom(status: number, body: string, what: string): KubeApiError {
  const { reason = '', message = '' } = parseStatus(body);
  return new KubeApiError(
    status,
    reason,
    `${what}: ${status}${reason ? ` ${reason}` : ''}${message ? `: ${message}` : ''}`,
  );
}

/** Retries of a 429 a request makes at most, and the longest wait it takes from the server (ADR 54). */
export const TOO_MANY_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 2_000;

/** PURE. How long to wait before sending a request again that the API server answered `status` with, as client-go
 * does: a 429 (APF queue full, a watch cache still initializing) was not processed, so any verb is sent again after the
 * Status's `retryAfterSeconds` (1 s when absent, at most 2 s), `TOO_MANY_RETRIES` times. undefined: answer as is. */
export function retryAfterMs(status: number, body: string, retriesSoFar: number): number | undefined {
  if (status !== 429 || retriesSoFar >= TOO_MANY_RETRIES) return undefined;
  const seconds = Number(parseStatus(body).details?.retryAfterSeconds ?? 1);
  return Math.min(Math.max(Number.isFinite(seconds) ? seconds * 1000 : 1000, 100), MAX_RETRY_AFTER_MS);
}

interface Status {
  reason?: string;
  message?: string;
  details?: { retryAfterSeconds?: unknown };
}

function parseStatus(body: string): Status {
  try {
    return JSON.parse(body) as Status;
  } catch {
    return { message: body.slice(0, 300) };
  }
}
