/** Why a registry operation failed; callers decide on retries by `retryable`, not by parsing messages. */
export type RegistryErrorCode =
  'NotFound' | 'Unauthorized' | 'DigestMismatch' | 'TooLarge' | 'BadContent' | 'Unavailable' | 'HostNotAllowed';

export interface RegistryErrorOptions {
  status?: number | undefined;
  retryable?: boolean;
  cause?: unknown;
}

/** A failed registry operation. Messages are built only from the registry host, repository, reference or
 * digest, the HTTP status and the registry's error codes — never from headers, credentials or tokens. */
export class RegistryError extends Error {
  readonly code: RegistryErrorCode;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(code: RegistryErrorCode, message: string, options: RegistryErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RegistryError';
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? code === 'Unavailable';
  }
}

export const isRegistryError = (e: unknown, code?: RegistryErrorCode): e is RegistryError =>
  e instanceof RegistryError && (code === undefined || e.code === code);

export const badContent = (message: string) => new RegistryError('BadContent', message);

/** Maps an unsuccessful HTTP answer to an error; `registryCodes` are the `errors[].code` values of the body. */
export function registryErrorFromStatus(status: number, what: string, registryCodes: string[] = []): RegistryError {
  const detail = `${what}: HTTP ${status}${registryCodes.length ? ` ${registryCodes.join(',')}` : ''}`;
  if (status === 401 || status === 403) return new RegistryError('Unauthorized', detail, { status });
  if (status === 404) return new RegistryError('NotFound', detail, { status });
  if (status === 413) return new RegistryError('TooLarge', detail, { status });
  if (status === 408 || status === 429 || status >= 500) return new RegistryError('Unavailable', detail, { status });
  return new RegistryError('BadContent', detail, { status });
}

/** Reads the distribution error codes (`MANIFEST_UNKNOWN`, …) of an error body; free text is dropped. */
export function registryCodesOf(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { errors?: { code?: unknown }[] };
    return (parsed.errors ?? [])
      .map((e) => e.code)
      .filter((c): c is string => typeof c === 'string' && /^[A-Z_]{1,64}$/.test(c));
  } catch {
    return [];
  }
}
