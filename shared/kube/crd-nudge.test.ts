import { describe, expect, it } from 'vitest';
import { ANNOTATION } from '../core/vocabulary.ts';
import { needsNudge, NUDGE_AFTER_MS, type CrdState } from './crd-nudge.ts';

const at = Date.parse('2026-11-25T10:00:00Z');
const crd = (
  conditions: { type: string; status: string; lastTransitionTime?: string }[],
  metadata: Partial<CrdState['metadata']> = {},
): CrdState => ({
  metadata: { name: 'modulereleasemetas.operator.kyma-project.io', ...metadata },
  status: { conditions },
});
const accepted = { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2026-11-25T10:00:00Z' };

describe('needsNudge', () => {
  it('nudges a CRD whose names were accepted long enough ago but that is not established', () => {
    expect(needsNudge(crd([accepted, { type: 'Established', status: 'False' }]), at + NUDGE_AFTER_MS)).toBe(true);
    expect(needsNudge(crd([accepted]), at + NUDGE_AFTER_MS)).toBe(true);
  });
  it('leaves it alone while it may still be establishing, once established, without accepted names, or being deleted', () => {
    expect(needsNudge(crd([accepted]), at + NUDGE_AFTER_MS - 1)).toBe(false);
    expect(needsNudge(crd([accepted, { type: 'Established', status: 'True' }]), at + NUDGE_AFTER_MS)).toBe(false);
    expect(needsNudge(crd([{ ...accepted, status: 'False' }]), at + NUDGE_AFTER_MS)).toBe(false);
    expect(needsNudge(crd([]), at + NUDGE_AFTER_MS)).toBe(false);
    expect(needsNudge(crd([accepted], { deletionTimestamp: '2026-11-25T10:00:01Z' }), at + NUDGE_AFTER_MS)).toBe(false);
  });
  it('nudges again only NUDGE_AFTER_MS after the last nudge', () => {
    const nudged = crd([accepted], { annotations: { [ANNOTATION.establishNudge]: '2026-11-25T10:00:20Z' } });
    expect(needsNudge(nudged, at + 25_000)).toBe(false);
    expect(needsNudge(nudged, at + 20_000 + NUDGE_AFTER_MS)).toBe(true);
  });
});
