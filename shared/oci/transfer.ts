import { createHash } from 'node:crypto';
import { RegistryError } from './errors.ts';

/** A failed or timed-out connection; the message names the system error code, nothing from the request. */
export function unavailable(what: string, e: unknown): RegistryError {
  const cause = e instanceof Error ? e.cause : undefined;
  const code = cause instanceof Error && 'code' in cause ? String(cause.code) : e instanceof Error ? e.name : 'error';
  return new RegistryError('Unavailable', `${what}: registry unreachable (${code})`, { cause: e });
}

/** Reads a body up to `max` bytes, hashing it on the way; more bytes (declared or sent) fail with TooLarge. */
export async function readLimited(
  res: Response,
  max: number,
  what: string,
): Promise<{ bytes: Uint8Array; digest: string }> {
  const tooLarge = () => new RegistryError('TooLarge', `${what}: larger than the limit of ${max} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > max) {
    await discard(res);
    throw tooLarge();
  }
  const hash = createHash('sha256');
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = await reader?.read().catch((e: unknown) => {
      throw unavailable(what, e);
    });
    if (!chunk || chunk.done) break;
    total += chunk.value.length;
    if (total > max) {
      await reader?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    hash.update(chunk.value);
    chunks.push(chunk.value);
  }
  return { bytes: Buffer.concat(chunks, total), digest: `sha256:${hash.digest('hex')}` };
}

/** Frees the connection of an answer whose body is not needed. */
export async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}
