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

function parseStatus(body: string): { reason?: string; message?: string } {
  try {
    return JSON.parse(body) as { reason?: string; message?: string };
  } catch {
    return { message: body.slice(0, 300) };
  }
}
