import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { nextStatus, statusChanged } from './status.ts';

const manifest = (status?: NonNullable<Manifest['status']>): Manifest => ({
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Manifest',
  metadata: { name: 'm', namespace: 'kcp-system' },
  ...(status ? { status } : {}),
});

describe('whether a Manifest status write changes anything', () => {
  it('ignores what a write records (its trace and its lane, ADR 20 and 72), not the state', () => {
    const wish = { state: 'Ready' as const, operation: 'resources are ready' };
    const first = nextStatus(manifest(), wish, '2026-12-03T10:00:00Z');
    const stored = manifest({ ...first, lastTrace: '00-aa-bb-01', lastLane: 'user' });
    expect(statusChanged(stored, nextStatus(stored, wish, '2026-12-03T10:05:00Z'))).toBe(false);
    expect(statusChanged(stored, nextStatus(stored, { ...wish, state: 'Error' }, '2026-12-03T10:05:00Z'))).toBe(true);
  });
});
