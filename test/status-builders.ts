// The Kymas and Manifests aggregate-status's decision tests start from (functions/aggregate-status/decide*.test.ts).
import type { Kyma, ModuleStatus } from '../shared/core/kyma.ts';
import type { Manifest } from '../shared/core/manifest.ts';
import type { State } from '../shared/core/objects.ts';
import { aKyma, aManifest } from './builders.ts';

export const NOW = '2026-11-22T12:00:00Z';
export const SYNCED = { crds: { ok: true, message: 'CRDs synced' }, catalog: { ok: true, message: 'catalog synced' } };
/** A Kyma whose effective module list (as resolve-template recorded it) is `modules`. */
export const kyma = (modules: { name: string; managed?: boolean }[], status: Kyma['status'] = {}): Kyma => {
  const resolved = modules.map((m): ModuleStatus => ({
    name: m.name,
    resolution: { state: 'Resolved', ...(m.managed === false ? { managed: false } : {}) },
  }));
  const merged = [
    ...resolved.filter((r) => !(status.modules ?? []).some((e) => e.name === r.name)),
    ...(status.modules ?? []),
  ];
  return aKyma({
    generation: 2,
    status: { specSource: { from: 'runtime', channel: 'regular' }, ...status, modules: merged },
  });
};
const SAMPLE_CR = { apiVersion: 'x/v1', kind: 'Sample', metadata: { name: 's', namespace: 'kyma-system' } };
export const manifest = (module: string, state: State, operation = ''): Manifest =>
  aManifest({ module, state, operation, generation: 1, spec: { resource: SAMPLE_CR } });
