import { describe, expect, it } from 'vitest';
import { aKyma, aManifest } from '../../test/builders.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { fleetMetrics, type FleetState } from './metrics.ts';

const kyma = (name: string, state: 'Ready' | 'Error', modules: { name: string; state: 'Ready' | 'Error' }[]): Kyma =>
  aKyma({
    name,
    annotations: { 'skr-domain': `${name}-shoot.example.com` },
    labels: { 'kyma-project.io/instance-id': `id-${name}` },
    status: { state, modules },
  });
const mandatoryManifest: Manifest = aManifest({
  kyma: 'a',
  module: 'istio',
  labels: { 'operator.kyma-project.io/mandatory-module': 'true' },
  state: 'Ready',
});
const meta = (name: string, mandatory: boolean): ModuleReleaseMeta =>
  ({
    apiVersion: 'operator.kyma-project.io/v1beta2',
    kind: 'ModuleReleaseMeta',
    metadata: { name, namespace: 'kcp-system' },
    spec: {
      moduleName: name,
      ocmComponentName: `kyma-project.io/module/${name}`,
      channels: [],
      ...(mandatory ? { mandatory: { version: '1.0.0' } } : {}),
    },
  }) as ModuleReleaseMeta;

const lines = async (state: FleetState) =>
  (await fleetMetrics(async () => state).scrape()).split('\n').filter((l) => l && !l.startsWith('#'));

describe('fleet metrics', () => {
  it('one-hot Kyma and module states with shoot and instance id; mandatory modules and their states', async () => {
    const text = await lines({
      kymas: [kyma('a', 'Error', [{ name: 'alpha', state: 'Error' }])],
      manifests: [mandatoryManifest],
      releaseMetas: [meta('istio', true), meta('alpha', false)],
    });
    expect(text).toContain(
      'lifecycle_mgr_kyma_state{kyma_name="a",shoot="a-shoot",instance_id="id-a",state="Error"} 1',
    );
    expect(text).toContain(
      'lifecycle_mgr_kyma_state{kyma_name="a",shoot="a-shoot",instance_id="id-a",state="Ready"} 0',
    );
    expect(text.filter((l) => l.startsWith('lifecycle_mgr_kyma_state{'))).toHaveLength(5);
    expect(text).toContain(
      'lifecycle_mgr_module_state{kyma_name="a",shoot="a-shoot",instance_id="id-a",module_name="alpha",state="Error"} 1',
    );
    expect(text.filter((l) => l.startsWith('lifecycle_mgr_module_state{'))).toHaveLength(6);
    expect(text).toContain('lifecycle_mgr_mandatory_modules 1');
    expect(text).toContain('lifecycle_mgr_mandatory_module_state{module_name="istio",kyma_name="a",state="Ready"} 1');
  });

  it('a deleted Kyma or removed module has no series at the next scrape', async () => {
    let state: FleetState = {
      kymas: [kyma('a', 'Ready', [{ name: 'alpha', state: 'Ready' }]), kyma('b', 'Ready', [])],
      manifests: [],
      releaseMetas: [],
    };
    const metrics = fleetMetrics(async () => state);
    expect(await metrics.scrape()).toContain('kyma_name="b"');
    state = { kymas: [kyma('a', 'Ready', [])], manifests: [], releaseMetas: [] };
    const text = await metrics.scrape();
    expect(text).not.toContain('kyma_name="b"');
    expect(text).not.toContain('module_name="alpha"');
  });
});
