import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import type { Kyma, ModuleStatus } from '../../shared/core/kyma.ts';
import { fleetMetrics } from './metrics.ts';
import { pendingReleases } from './release-metrics.ts';

const install = (version: string, wanted: string, extra: Partial<ModuleStatus> = {}): ModuleStatus => ({
  name: 'alpha',
  channel: 'regular',
  version,
  state: version === wanted ? 'Ready' : 'Processing',
  resolution: { state: 'Resolved', version: wanted },
  ...extra,
});
const kyma = (name: string, modules: ModuleStatus[], status: Partial<NonNullable<Kyma['status']>> = {}): Kyma =>
  aKyma({ name, status: { state: 'Processing', modules, ...status } });
const unreachable = 'runtime of Kyma c unreachable: connect ECONNREFUSED';
const fleet = [
  kyma('a', [install('1.0.0', '2.0.0')]),
  kyma('b', [install('2.0.0', '2.0.0')]),
  kyma('c', [install('1.0.0', '2.0.0', { resolution: { state: 'Resolved', version: '2.0.0', maintenance: true } })], {
    state: 'Error',
    conditions: [
      { type: 'CRDsSync', status: 'Unknown', reason: 'Ready', message: unreachable },
      { type: 'Modules', status: 'False', reason: 'Ready', message: unreachable },
    ],
  }),
  { ...kyma('d', [install('1.0.0', '2.0.0')]), metadata: { name: 'd', deletionTimestamp: '2026-12-01T00:00:00Z' } },
];

describe('release and runtime gauges', () => {
  it('counts what a release still has to do: not maintenance waits, not deleting Kymas, not installs at the version', () => {
    expect([...pendingReleases(fleet).values()]).toEqual([{ module: 'alpha', version: '2.0.0', kymas: 1 }]);
    expect(pendingReleases([kyma('b', [install('2.0.0', '2.0.0')])]).size).toBe(0);
  });

  it('exports installs by version, pending installs and unreachable runtimes', async () => {
    const text = await fleetMetrics(async () => ({ kymas: fleet, manifests: [], releaseMetas: [] })).scrape();
    expect(text).toContain(
      'lifecycle_module_installs{module_name="alpha",version="1.0.0",channel="regular",state="Processing"} 3',
    );
    expect(text).toContain(
      'lifecycle_module_installs{module_name="alpha",version="2.0.0",channel="regular",state="Ready"} 1',
    );
    expect(text).toContain('lifecycle_module_release_pending{module_name="alpha",version="2.0.0"} 1');
    expect(text).toContain('lifecycle_kyma_runtime_unreachable{kyma_name="c",shoot="",instance_id=""} 1');
    expect(text).toContain('lifecycle_kyma_runtime_unreachable{kyma_name="a",shoot="",instance_id=""} 0');
    expect(text).toContain('lifecycle_fleet_kymas 4');
  });
});
