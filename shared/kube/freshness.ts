import { callContext, withinCall } from '../host/call-context.ts';

/** How fresh watch-cache reads must be in the current call (ADR 15): per kind, the highest resourceVersion the call
 * has seen (its event's object, its own writes), which a cached read waits for. resourceVersions compare as the etcd
 * revisions they are; one that is not a number sends the read to the API server. */
export class Freshness {
  private readonly seen = new Map<string, bigint>();

  /** Records that `kind` (as `group/Kind`) has been seen at `resourceVersion`. */
  note(kind: string, resourceVersion: string | undefined): void {
    const revision = revisionOf(resourceVersion);
    if (revision === undefined) return;
    if (revision > (this.seen.get(kind) ?? 0n)) this.seen.set(kind, revision);
  }

  required(kind: string): bigint {
    return this.seen.get(kind) ?? 0n;
  }
}

/** Runs `work` with a fresh Freshness; `kind`/`resourceVersion` seed it with the object the call is about, `also`
 * with what the event's sender had seen. */
export function withFreshness<T>(
  work: () => Promise<T>,
  kind?: string,
  resourceVersion?: string,
  also?: { kind: string; resourceVersion: string },
): Promise<T> {
  const freshness = new Freshness();
  if (kind) freshness.note(kind, resourceVersion);
  if (also) freshness.note(also.kind, also.resourceVersion);
  return withinCall({ freshness }, work);
}

export const currentFreshness = (): Freshness | undefined => callContext().freshness;

export const kindKey = (apiVersion: string, kind: string) =>
  `${apiVersion.includes('/') ? apiVersion.split('/')[0] : ''}/${kind}`;

export function revisionOf(resourceVersion: string | undefined): bigint | undefined {
  if (!resourceVersion || !/^[0-9]{1,20}$/.test(resourceVersion)) return undefined;
  return BigInt(resourceVersion);
}
