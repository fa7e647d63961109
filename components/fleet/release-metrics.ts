// Gauges for alerts and dashboards (issue 37), computed at scrape time like upstream's: installs by module, version,
// channel and state (the version spread during a release), installs still waiting for their channel's version, and
// the Kymas whose runtime could not be used.
import { Gauge, type Registry } from 'prom-client';
import { runtimeUnreachable, type Kyma } from '../../shared/core/kyma.ts';
import { ANNOTATION, LABEL } from '../../shared/core/vocabulary.ts';
import { summarizeFleet } from './summary.ts';

/** Upstream's metric labels from the Kyma: shoot (first DNS label of the skr-domain annotation) and instance id. */
export function shootAndInstance(kyma: Kyma): { shoot: string; instance_id: string } {
  return {
    shoot: (kyma.metadata.annotations?.[ANNOTATION.skrDomain] ?? '').split('.')[0] ?? '',
    instance_id: kyma.metadata.labels?.[LABEL.instanceId] ?? '',
  };
}

/** PURE. Per module and the version its channel asks for: installs running another version, not held by a
 * maintenance window (those wait on purpose) — what a release still has to do. */
export function pendingReleases(
  kymas: readonly Kyma[],
): Map<string, { module: string; version: string; kymas: number }> {
  const pending = new Map<string, { module: string; version: string; kymas: number }>();
  for (const kyma of kymas) {
    if (kyma.metadata.deletionTimestamp) continue;
    for (const m of kyma.status?.modules ?? []) {
      const wanted = m.resolution?.version;
      if (!wanted || m.version === wanted || m.resolution?.maintenance || m.maintenance) continue;
      const key = `${m.name}\n${wanted}`;
      const known = pending.get(key);
      if (known) known.kymas++;
      else pending.set(key, { module: m.name, version: wanted, kymas: 1 });
    }
  }
  return pending;
}

/** Registers the four gauges on `registry`; `kymas()` is the scrape's current read. */
export function registerReleaseGauges(registry: Registry, kymas: () => readonly Kyma[]): void {
  new Gauge({
    name: 'lifecycle_module_installs',
    help: 'Module installs by module, version, channel and state (from the Kymas’ status).',
    labelNames: ['module_name', 'version', 'channel', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const row of summarizeFleet(kymas()).modules)
        this.set({ module_name: row.module, version: row.version, channel: row.channel, state: row.state }, row.kymas);
    },
  });
  new Gauge({
    name: 'lifecycle_module_release_pending',
    help: 'Installs of a module not yet at the version its channel asks for (maintenance waits excluded).',
    labelNames: ['module_name', 'version'],
    registers: [registry],
    collect() {
      this.reset();
      for (const p of pendingReleases(kymas()).values())
        this.set({ module_name: p.module, version: p.version }, p.kymas);
    },
  });
  new Gauge({
    name: 'lifecycle_fleet_kymas',
    help: 'Kymas the fleet component sees (always present: its absence means the component is not scraped).',
    registers: [registry],
    collect() {
      this.set(kymas().length);
    },
  });
  new Gauge({
    name: 'lifecycle_kyma_runtime_unreachable',
    help: 'Whether the Kyma’s runtime could not be used at its last status pass (1) or could (0).',
    labelNames: ['kyma_name', 'shoot', 'instance_id'],
    registers: [registry],
    collect() {
      this.reset();
      for (const kyma of kymas())
        this.set({ kyma_name: kyma.metadata.name, ...shootAndInstance(kyma) }, runtimeUnreachable(kyma) ? 1 : 0);
    },
  });
}
