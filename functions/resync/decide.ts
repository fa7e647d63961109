import { fnv1Hash32 } from '../../shared/core/names.ts';
import { RESYNC_DRIFT, RESYNC_PENDING, RESYNC_RELEASE } from '../../shared/core/resync-reasons.ts';

export interface Candidate {
  kind: string;
  name: string;
  state: string | undefined;
  deleting: boolean;
  /** When the object was last written (its newest managedFields time, else its creation), ms since the epoch. */
  lastWrite: number;
  /** When the functions last wrote it (the newest managedFields time of our field managers; 0 = never). */
  lastOwnWrite?: number;
  /** A Kyma whose module channels moved since its last resolution: it waits for a release (ADR 30). */
  awaitsRelease?: boolean;
  /** A Ready Kyma with an upgrade waiting for its maintenance window: only a check notices the window opening. */
  awaitsMaintenance?: boolean;
  /** What the drift slot is spread by when not the name: a Manifest's Kyma, so a Kyma's modules are checked in the
   * same minute, one after the other, and share what their checks read on the runtime (ADR 57). */
  slot?: string;
  /** Labelled to be skipped (skip-reconciliation): no function writes it, so its lack of a state is no work waiting. */
  skipped?: boolean;
}

/** PURE. Whether an object is due at `minute` (`now` in ms): not Ready or deleting every minute; Ready ones in a slot
 * by their slot name's hash (ADR 57) every drift period, not within a period of the functions' last write (ADR 42) —
 * both `stretch` periods while the fleet converges (ADR 63); a Kyma waiting for maintenance: every period, written or not. */
export function isDue(
  candidate: Pick<Candidate, 'name' | 'state' | 'deleting' | 'lastOwnWrite' | 'awaitsMaintenance' | 'slot'>,
  minute: number,
  driftPeriodMinutes: number,
  now = minute * 60_000,
  stretch = 1,
): boolean {
  if (candidate.deleting || candidate.state !== 'Ready') return true;
  const period = Math.max(1, driftPeriodMinutes);
  const slots = candidate.awaitsMaintenance ? period : period * stretch;
  if (!candidate.awaitsMaintenance && now - (candidate.lastOwnWrite ?? 0) < slots * 60_000) return false;
  return fnv1Hash32(candidate.slot ?? candidate.name) % slots === minute % slots;
}

/** A non-Ready object written within this long is being worked on: it goes after the quiet ones. */
export const BUSY_MS = 60_000;

/** How many drift periods a Ready object's checks are apart while the fleet converges (ADR 63): three, six or twelve
 * as more work waits (ADR 84); each divides the next, so a longer stretch's slots are among a shorter one's. */
export const DRIFT_STRETCHES = [3, 6, 12] as const;
const LONGEST_STRETCH = DRIFT_STRETCHES[2];

/** PURE. How many objects have work outstanding: not handled yet, with no state (ADR 79); written in the last minute
 * (ADR 63); or Processing and written within the longest stretch, waiting its turn in a long rollout (ADR 87). Not
 * deleting, not skipped, not Ready; Error or Warning not written for a minute is stuck, not work waiting. */
export function outstandingWork(candidates: readonly Candidate[], now: number, driftPeriodMinutes: number): number {
  const waitingMs = LONGEST_STRETCH * Math.max(1, driftPeriodMinutes) * 60_000;
  let outstanding = 0;
  for (const c of candidates) {
    if (c.deleting || c.skipped || c.state === 'Ready') continue;
    const since = now - c.lastWrite;
    if (!c.state || since < BUSY_MS || (c.state === 'Processing' && since < waitingMs)) outstanding++;
  }
  return outstanding;
}

/** PURE. How many drift periods apart a Ready object's checks are: 1 while calm; converging, 3 — 6 past four ticks'
 * budget of outstanding work, 12 past sixteen — so a long rollout's installs keep the API servers (ADR 84). */
export function driftStretch(outstanding: number, budget: number): number {
  if (outstanding <= budget) return 1;
  const [short, middle, long] = DRIFT_STRETCHES;
  return outstanding > 16 * budget ? long : outstanding > 4 * budget ? middle : short;
}

/** PURE. What a due object's `resync.due` asks for (ADR 27): a Ready object in its drift slot gets a full drift check;
 * one not Ready (or being deleted) gets the safety net's normal reconcile, which may rely on what functions remember. */
export function reasonOf(
  candidate: Pick<Candidate, 'state' | 'deleting'>,
): typeof RESYNC_DRIFT | typeof RESYNC_PENDING {
  return candidate.state === 'Ready' && !candidate.deleting ? RESYNC_DRIFT : RESYNC_PENDING;
}

/** PURE. The due objects of one tick (ADR 16): deleting ones and Ready ones in their drift slot (`stretch` periods
 * apart, ADR 63, 84) always; not Ready ones up to `budget`, the quiet ones first in an order that rotates every tick, a
 * Kyma's with it (ADR 80), then those written in the last minute, oldest write first. */
export function selectDue(
  candidates: readonly Candidate[],
  minute: number,
  driftPeriodMinutes: number,
  budget: number,
  now = minute * 60_000,
  stretch = driftStretch(outstandingWork(candidates, now, driftPeriodMinutes), budget),
): Candidate[] {
  const due = candidates.filter((c) => isDue(c, minute, driftPeriodMinutes, now, stretch));
  const waiting = due.filter((c) => !c.deleting && c.state !== 'Ready');
  if (waiting.length <= budget) return due;
  // Sort keys computed once per object, not per comparison (30,000 waiting objects: 900,000 hashes otherwise).
  const keyed = waiting.map((c) => ({
    c,
    busy: now - c.lastWrite < BUSY_MS,
    order: mix32(fnv1Hash32(c.slot ?? c.name) ^ Math.imul(minute, 0x9e3779b9)),
  }));
  keyed.sort((a, b) => Number(a.busy) - Number(b.busy) || (a.busy ? a.c.lastWrite - b.c.lastWrite : a.order - b.order));
  const picked = new Set(keyed.slice(0, budget).map((k) => k.c));
  return due.filter((c) => c.deleting || c.state === 'Ready' || picked.has(c));
}

/** A 32-bit finaliser (murmur3 fmix32): every input bit moves every output bit, so the order really rotates. */
function mix32(value: number): number {
  let h = value >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** One event a tick sends: a resync.due for a due object, one modules.due naming a Kyma's Manifests due for their
 * drift checks (ADR 94), or the release tick for resolve-template (ADR 30). */
export interface ResyncStep {
  step: 'SendResyncDue' | 'SendModulesDue' | 'SendReleaseTick';
  kind: string;
  name: string;
  reason: string;
  /** SendModulesDue: the Manifests, in the order they are checked. */
  manifests?: string[];
}

/** What a tick saw: the Kymas' and Manifests' candidates, and the release metas (name, channels, mandatory). */
export interface ResyncView {
  candidates: readonly Candidate[];
  metas: readonly { name: string; channels: number; mandatory: boolean }[];
  minute: number;
  now: number;
  driftPeriodMinutes: number;
  budget: number;
  /** driftStretch of the candidates, when the caller has it already (ADR 63, 84). */
  stretch?: number;
}

/** PURE. The events of a tick, in order: one resync.due per due object (selectDue's, at most `budget`; those of one
 * slot together, ADR 57) — a Kyma's Manifests due for their drift checks in one modules.due where the first was
 * (ADR 94) — then, when Kymas wait for a release, one release tick naming a ModuleReleaseMeta with channels (ADR 30). */
export function resyncSteps(view: ResyncView): ResyncStep[] {
  const due = bySlot(
    selectDue(view.candidates, view.minute, view.driftPeriodMinutes, view.budget, view.now, view.stretch),
  );
  const awaiting = view.candidates.some((c) => c.awaitsRelease && !c.deleting);
  const meta = awaiting ? view.metas.find((m) => m.channels > 0 && !m.mandatory) : undefined;
  return [
    ...withModulesDue(due),
    ...(meta
      ? [{ step: 'SendReleaseTick' as const, kind: 'ModuleReleaseMeta', name: meta.name, reason: RESYNC_RELEASE }]
      : []),
  ];
}

/** PURE. One resync.due per due object, but one modules.due per Kyma for its Manifests' drift checks (ADR 94). */
function withModulesDue(due: readonly Candidate[]): ResyncStep[] {
  const steps: ResyncStep[] = [];
  const byKyma = new Map<string, string[]>();
  for (const c of due) {
    const reason = reasonOf(c);
    if (c.kind !== 'Manifest' || !c.slot || reason !== RESYNC_DRIFT) {
      steps.push({ step: 'SendResyncDue', kind: c.kind, name: c.name, reason });
      continue;
    }
    const batch = byKyma.get(c.slot);
    if (batch) batch.push(c.name);
    else {
      const manifests = [c.name];
      byKyma.set(c.slot, manifests);
      steps.push({ step: 'SendModulesDue', kind: 'Kyma', name: c.slot, reason, manifests });
    }
  }
  return steps;
}

/** PURE. The objects of one slot one after the other, each slot where its first object was (a Kyma's Manifests, sent
 * together, find what the first one's drift check read still there: ADR 57). */
export function bySlot(due: readonly Candidate[]): Candidate[] {
  const slots = new Map<string, Candidate[]>();
  for (const c of due) {
    const key = `${c.kind}\n${c.slot ?? c.name}`;
    const group = slots.get(key);
    if (group) group.push(c);
    else slots.set(key, [c]);
  }
  return [...slots.values()].flat();
}
