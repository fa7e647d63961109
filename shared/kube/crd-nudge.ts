// A CRD whose names were accepted but that was never established (its API server killed between those two status
// writes) is nudged by an update of its metadata, so the API server establishes it at once (ADR 32).
import { ANNOTATION } from '../core/vocabulary.ts';
import type { KubeClient } from './client.ts';

interface CrdCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}
export interface CrdState {
  metadata: {
    name: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    annotations?: Record<string, string>;
  };
  status?: { conditions?: CrdCondition[] };
}

/** How long a CRD with accepted names may stay unestablished before it is nudged (the API server needs well under a second). */
export const NUDGE_AFTER_MS = 10_000;

/** PURE. True when `crd` has had its names accepted for NUDGE_AFTER_MS (and was not nudged since) but is not
 * established, and is not being deleted. */
export function needsNudge(crd: CrdState, now: number): boolean {
  const condition = (type: string) => crd.status?.conditions?.find((c) => c.type === type);
  if (crd.metadata.deletionTimestamp || condition('Established')?.status === 'True') return false;
  const accepted = condition('NamesAccepted');
  if (accepted?.status !== 'True') return false;
  const since = Math.max(
    ...[accepted.lastTransitionTime, crd.metadata.annotations?.[ANNOTATION.establishNudge]].map(
      (t) => Date.parse(t ?? '') || 0,
    ),
  );
  return now - since >= NUDGE_AFTER_MS;
}

/** Nudges `crd` (an annotation with the time) when needsNudge says so; true when it did. */
export async function nudgeUnestablished(client: KubeClient, crd: CrdState, now = Date.now()): Promise<boolean> {
  if (!needsNudge(crd, now)) return false;
  const ref = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd.metadata.name };
  await client.mergePatch(ref, {
    metadata: { annotations: { [ANNOTATION.establishNudge]: new Date(now).toISOString() } },
  });
  return true;
}
