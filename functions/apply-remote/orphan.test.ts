import { describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/domain/kyma.ts';
import type { Manifest } from '../../shared/domain/manifest.ts';
import { orphanReason } from './orphan.ts';

const CREATED = Date.parse('2026-11-22T12:00:00Z');
const manifest = (mandatory = false): Manifest => ({
  apiVersion: 'v', kind: 'Manifest', metadata: { name: 'k1-sample', creationTimestamp: new Date(CREATED).toISOString(), labels: { 'operator.kyma-project.io/kyma-name': 'k1', ...(mandatory ? { 'operator.kyma-project.io/mandatory-module': 'true' } : {}) } },
});
const kyma = (referenced: boolean): Kyma => ({
  apiVersion: 'v', kind: 'Kyma', metadata: { name: 'k1' }, spec: { channel: 'regular' },
  status: { modules: referenced ? [{ name: 'sample', manifest: { apiVersion: 'v', kind: 'Manifest', metadata: { name: 'k1-sample' } } }] : [] },
});

describe('orphanReason', () => {
  it.each([
    ['the Kyma is gone', manifest(), undefined, CREATED + 1000, 'orphaned manifest detected: Kyma k1 does not exist'],
    ['unreferenced for more than 5 minutes', manifest(), kyma(false), CREATED + 6 * 60_000, 'orphaned manifest detected: Kyma k1 has not referenced it in its status for 6 minutes'],
    ['unreferenced but young', manifest(), kyma(false), CREATED + 60_000, ''],
    ['referenced', manifest(), kyma(true), CREATED + 60 * 60_000, ''],
    ['mandatory (never in status)', manifest(true), kyma(false), CREATED + 60 * 60_000, ''],
  ])('%s', (_, m, k, now, reason) => {
    expect(orphanReason(m, k, now)).toBe(reason);
  });
});
