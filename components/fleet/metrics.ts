// The fleet's state as Prometheus gauges with upstream's names and labels (issue 9; upstream-behaviour §7), computed
// at scrape time from what the fleet component holds in its watch caches: a deleted Kyma or a removed module has no
// series at the next scrape, without a clean-up job.
import { Gauge, Registry } from 'prom-client';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import { registerReleaseGauges, shootAndInstance } from './release-metrics.ts';
import { KYMA_STATES, MODULE_STATES } from './summary.ts';

/** What a scrape reads: the current Kymas, Manifests and ModuleReleaseMetas. */
export interface FleetState {
  kymas: readonly Kyma[];
  manifests: readonly Manifest[];
  releaseMetas: readonly ModuleReleaseMeta[];
}

/** Gauges recomputed from `state()` at every scrape (one read per scrape, shared by the four gauges). */
export function fleetMetrics(state: () => Promise<FleetState>): { registry: Registry; scrape: () => Promise<string> } {
  const registry = new Registry();
  let current: FleetState = { kymas: [], manifests: [], releaseMetas: [] };
  new Gauge({
    name: 'lifecycle_mgr_kyma_state',
    help: 'One-hot over the Kyma states: 1 for the current state of each Kyma.',
    labelNames: ['kyma_name', 'state', 'shoot', 'instance_id'],
    registers: [registry],
    collect() {
      this.reset();
      for (const kyma of current.kymas) {
        const labels = { kyma_name: kyma.metadata.name, ...shootAndInstance(kyma) };
        for (const state of KYMA_STATES) this.set({ ...labels, state }, kyma.status?.state === state ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: 'lifecycle_mgr_module_state',
    help: 'One-hot over the module states: 1 for the current state of each module of each Kyma.',
    labelNames: ['module_name', 'kyma_name', 'state', 'shoot', 'instance_id'],
    registers: [registry],
    collect() {
      this.reset();
      for (const kyma of current.kymas) {
        const labels = { kyma_name: kyma.metadata.name, ...shootAndInstance(kyma) };
        for (const module of kyma.status?.modules ?? []) {
          for (const state of MODULE_STATES)
            this.set({ ...labels, module_name: module.name, state }, module.state === state ? 1 : 0);
        }
      }
    },
  });
  new Gauge({
    name: 'lifecycle_mgr_mandatory_modules',
    help: 'Number of mandatory modules (ModuleReleaseMetas with spec.mandatory).',
    registers: [registry],
    collect() {
      this.set(current.releaseMetas.filter((m) => m.spec?.mandatory?.version && !m.metadata.deletionTimestamp).length);
    },
  });
  new Gauge({
    name: 'lifecycle_mgr_mandatory_module_state',
    help: "One-hot over the module states of each mandatory module's Manifest.",
    labelNames: ['module_name', 'kyma_name', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const manifest of current.manifests) {
        const labels = manifest.metadata.labels ?? {};
        if (labels[LABEL.mandatoryModule] !== 'true') continue;
        const base = {
          module_name: labels[LABEL.moduleName] ?? manifest.metadata.name,
          kyma_name: labels[LABEL.kymaName] ?? '',
        };
        for (const state of MODULE_STATES) this.set({ ...base, state }, manifest.status?.state === state ? 1 : 0);
      }
    },
  });
  registerReleaseGauges(registry, () => current.kymas);
  return {
    registry,
    async scrape() {
      current = await state();
      return registry.metrics();
    },
  };
}
