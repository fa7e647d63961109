import { describe, expect, it } from 'vitest';
import { specLastWrittenBy } from './spec-writer.ts';

const OURS = ['kyma-sync-context'];
const entry = (manager: string, time: string, fields: Record<string, unknown>) => ({ manager, operation: 'Update', time, fieldsV1: fields });
const kyma = (...managedFields: unknown[]) => ({ metadata: { name: 'default', managedFields } });

describe('specLastWrittenBy', () => {
  it('a runtime Kyma we created, whose labels we synced later, was last written by us', () => {
    const created = entry('kyma-sync-context', '2026-11-25T10:00:00Z', { 'f:spec': { 'f:channel': {} }, 'f:metadata': {} });
    const labels = entry('kyma-sync-context', '2026-11-25T10:05:00Z', { 'f:metadata': { 'f:labels': {} } });
    expect(specLastWrittenBy(kyma(created, labels), OURS)).toBe(true);
  });

  it('a user\'s edit of the spec after our creation is not ours, also within the same second', () => {
    const created = entry('kyma-sync-context', '2026-11-25T10:00:00Z', { 'f:spec': { 'f:channel': {} } });
    expect(specLastWrittenBy(kyma(created, entry('kubectl-edit', '2026-11-25T10:01:00Z', { 'f:spec': { 'f:modules': {} } })), OURS)).toBe(false);
    expect(specLastWrittenBy(kyma(created, entry('kubectl-edit', '2026-11-25T10:00:00Z', { 'f:spec': { 'f:modules': {} } })), OURS)).toBe(false);
  });

  it('a status write of ours after a user\'s spec edit leaves the edit the newest spec write', () => {
    const edit = entry('kubectl-client-side-apply', '2026-11-25T10:01:00Z', { 'f:spec': { 'f:modules': {} } });
    const status = entry('lifecycle-manager', '2026-11-25T10:02:00Z', { 'f:status': {} });
    expect(specLastWrittenBy(kyma(edit, status), OURS)).toBe(false);
  });

  it('no entries, or entries without field sets, are never taken as ours', () => {
    expect(specLastWrittenBy(kyma(), OURS)).toBe(false);
    expect(specLastWrittenBy({ metadata: { managedFields: [{ manager: 'kyma-sync-context', time: '2026-11-25T10:00:00Z' }] } }, OURS)).toBe(false);
    expect(specLastWrittenBy(undefined, OURS)).toBe(false);
  });
});
