import { describe, expect, it } from 'vitest';
import { aKyma, aManifest } from '../../test/builders.ts';
import type { Kyma, ModuleResolution } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { orphanReason } from './orphan.ts';

const CREATED = Date.parse('2026-11-22T12:00:00Z');
const manifest = (mandatory = false): Manifest =>
  aManifest({
    creationTimestamp: new Date(CREATED).toISOString(),
    labels: mandatory ? { 'operator.kyma-project.io/mandatory-module': 'true' } : {},
  });
const kyma = (referenced: boolean): Kyma =>
  aKyma({
    status: {
      modules: referenced
        ? [{ name: 'sample', manifest: { apiVersion: 'v', kind: 'Manifest', metadata: { name: 'k1-sample' } } }]
        : [],
    },
  });

/** A Kyma whose status holds resolve-template's resolution of module `sample` but no Manifest reference yet. */
const resolvedOnly = (
  component: string,
  resolution: ModuleResolution = { state: 'Resolved' },
  module = 'sample',
): Kyma => aKyma({ status: { modules: [{ name: module, ocmComponentName: component, resolution }] } });
/** A Manifest of module `sample`, named as upstream cut it for a runtime id (its name is not what ties it, ADR 40). */
const rendered = (): Manifest =>
  aManifest({ name: 'k1-sample-109249', creationTimestamp: new Date(CREATED).toISOString() });

describe('orphanReason', () => {
  it("a Manifest of a module the Kyma's resolution names is no orphan while the status aggregation lags (a converging fleet)", () => {
    expect(orphanReason(rendered(), resolvedOnly('kyma-project.io/module/sample'), CREATED + 30 * 60_000)).toBe('');
    expect(
      orphanReason(
        rendered(),
        resolvedOnly('kyma-project.io/module/other', { state: 'Resolved' }, 'other'),
        CREATED + 30 * 60_000,
      ),
    ).toMatch(/has not referenced it in its status for 30 minutes/);
    // A module the resolution refuses (visibility) or could not resolve references no Manifest by its resolution.
    expect(
      orphanReason(
        rendered(),
        resolvedOnly('kyma-project.io/module/sample', { state: 'Resolved', notAllowed: true }),
        CREATED + 30 * 60_000,
      ),
    ).not.toBe('');
    expect(
      orphanReason(
        rendered(),
        resolvedOnly('kyma-project.io/module/sample', { state: 'Error', message: 'no template' }),
        CREATED + 30 * 60_000,
      ),
    ).not.toBe('');
  });

  it.each([
    ['the Kyma is gone', manifest(), undefined, CREATED + 1000, 'orphaned manifest detected: Kyma k1 does not exist'],
    [
      'unreferenced for more than 5 minutes',
      manifest(),
      kyma(false),
      CREATED + 6 * 60_000,
      'orphaned manifest detected: Kyma k1 has not referenced it in its status for 6 minutes',
    ],
    ['unreferenced but young', manifest(), kyma(false), CREATED + 60_000, ''],
    ['referenced', manifest(), kyma(true), CREATED + 60 * 60_000, ''],
    ['mandatory (never in status)', manifest(true), kyma(false), CREATED + 60 * 60_000, ''],
  ])('%s', (_, m, k, now, reason) => {
    expect(orphanReason(m, k, now)).toBe(reason);
  });

  it('takes the grace from the configuration and says seconds below a minute', () => {
    expect(orphanReason(manifest(), kyma(false), CREATED + 7_000, 5_000)).toBe(
      'orphaned manifest detected: Kyma k1 has not referenced it in its status for 7 seconds',
    );
    expect(orphanReason(manifest(), kyma(false), CREATED + 4_000, 5_000)).toBe('');
    expect(orphanReason(manifest(), kyma(true), CREATED + 7_000, 5_000)).toBe('');
  });
});
