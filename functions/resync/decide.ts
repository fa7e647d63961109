import { fnv1Hash32 } from '../../shared/domain/names.ts';

export interface Candidate {
  name: string;
  state: string | undefined;
  deleting: boolean;
}

/**
 * PURE. Whether an object is due for a resync at `minute` (minutes since the epoch): everything not Ready (or
 * being deleted) every minute; Ready objects once per drift period, spread evenly over the period by name hash
 * so that 25,000 Manifests do not all come due in the same minute.
 */
export function isDue(candidate: Candidate, minute: number, driftPeriodMinutes: number): boolean {
  if (candidate.deleting || candidate.state !== 'Ready') return true;
  const period = Math.max(1, driftPeriodMinutes);
  return fnv1Hash32(candidate.name) % period === minute % period;
}
