export interface CoreVersion {
  major: number;
  minor: number;
  patch: number;
}

/** major.minor.patch of a semantic version (pre-release and build metadata ignored); undefined if unparsable. */
export function coreVersion(version: string): CoreVersion | undefined {
  const match = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/.exec(version.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/** Negative when a < b, 0 when equal, positive when a > b (core versions only). */
export function compareCore(a: CoreVersion, b: CoreVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** Whether going from version `from` to `to` is a downgrade: a lower major.minor.patch, or either version unparsable
 * and the two differ (upstream refuses what it cannot compare). */
export function isDowngrade(from: string, to: string): boolean {
  const [a, b] = [coreVersion(from), coreVersion(to)];
  if (!a || !b) return from !== to;
  return compareCore(b, a) < 0;
}
