import { describe, expect, it } from 'vitest';
import { specAsWeCreatedIt } from './spec-writer.ts';

const OURS = ['kyma-sync-context'];
const entry = (manager: string, fields: Record<string, unknown>) => ({
  manager,
  operation: 'Update',
  time: '2026-11-25T10:00:00Z',
  fieldsV1: fields,
});
const kyma = (generation: number, ...managedFields: unknown[]) => ({
  metadata: { name: 'default', generation, managedFields },
});
const created = entry('kyma-sync-context', { 'f:spec': { 'f:channel': {}, 'f:modules': {} }, 'f:metadata': {} });

describe('specAsWeCreatedIt', () => {
  it('the runtime Kyma as we created it, also after we synced its labels', () => {
    expect(specAsWeCreatedIt(kyma(1, created), OURS)).toBe(true);
    expect(
      specAsWeCreatedIt(
        kyma(1, created, {
          manager: 'kyma-sync-context',
          operation: 'Apply',
          fieldsV1: { 'f:metadata': { 'f:labels': {} } },
        }),
        OURS,
      ),
    ).toBe(true);
  });

  it('any spec change since the creation, also one that only removes modules (its writer then owns no spec field)', () => {
    expect(specAsWeCreatedIt(kyma(2, created), OURS)).toBe(false);
    expect(specAsWeCreatedIt(kyma(2, created, entry('kubectl-edit', { 'f:spec': { 'f:modules': {} } })), OURS)).toBe(
      false,
    );
  });

  it('a runtime Kyma someone else created', () => {
    expect(specAsWeCreatedIt(kyma(1, entry('kubectl-create', { 'f:spec': { 'f:channel': {} } })), OURS)).toBe(false);
    expect(specAsWeCreatedIt(kyma(1, created, entry('kubectl-create', { 'f:spec': { 'f:modules': {} } })), OURS)).toBe(
      false,
    );
  });

  it('no generation, no entries, or entries without field sets are never taken as ours', () => {
    expect(specAsWeCreatedIt({ metadata: { managedFields: [created] } }, OURS)).toBe(false);
    expect(specAsWeCreatedIt(kyma(1), OURS)).toBe(false);
    expect(specAsWeCreatedIt(kyma(1, { manager: 'kyma-sync-context' }), OURS)).toBe(false);
    expect(specAsWeCreatedIt(undefined, OURS)).toBe(false);
  });
});
