import { describe, expect, it } from 'vitest';
import { aKyma, aTemplate } from '../../test/builders.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { desiredManifest, installSources } from '../../shared/core/desired-manifest.ts';

const COMPONENT = 'kyma-project.io/module/hello-chart';
const digest = (n: number) => `sha256:${String(n).repeat(64)}`;
const layer = <N extends string>(name: N, n: number) => ({
  name,
  type: 'oci-ref' as const,
  ref: digest(n),
  componentName: COMPONENT,
});
const spec = (n: number, type: 'oci-ref' | 'oci-dir' = 'oci-ref') => ({
  repo: 'registry.example',
  name: COMPONENT,
  ref: digest(n),
  type,
});
const kyma: Kyma = aKyma({
  uid: 'u1',
  status: {
    specSource: { from: 'runtime', channel: 'regular' },
    modules: [{ name: 'hello-chart', channel: 'regular' }],
  },
});
const template: ModuleTemplate = aTemplate({
  module: 'hello-chart',
  version: '0.1.0',
  spec: { data: { apiVersion: 'charts.example.com/v1', kind: 'Greeting', metadata: {}, spec: {} } },
});
const source = (install: Parameters<typeof installSources>[2]) => ({
  module: { name: 'hello-chart' },
  entry: { name: 'hello-chart', channel: 'regular' },
  template,
  componentName: COMPONENT,
  version: '0.1.0',
  localizedImages: [],
  ...installSources('registry.example', COMPONENT, install),
});

describe('installSources', () => {
  it('names the raw-manifest layer only, for a raw module', () => {
    expect(installSources('registry.example', COMPONENT, { ...layer('raw-manifest', 4), type: 'oci-dir' })).toEqual({
      install: spec(4, 'oci-dir'),
    });
  });

  it('names the chart, config and CRDs layers for a chart module', () => {
    expect(
      installSources('registry.example', COMPONENT, {
        ...layer('helm-chart', 1),
        config: layer('chart-config', 2),
        crds: layer('chart-crds', 3),
      }),
    ).toEqual({ install: spec(1), chart: { config: spec(2), crds: spec(3) } });
  });

  it('names each layer by its blob name when it has one (sha256-digest mapping), as upstream writes spec.install.source.name', () => {
    const hex = 'a'.repeat(64);
    const named = <N extends string>(name: N, n: number) => ({ ...layer(name, n), blobName: hex });
    const hashed = (n: number, type: 'oci-ref' | 'oci-dir' = 'oci-ref') => ({ ...spec(n, type), name: hex });
    expect(installSources('registry.example', COMPONENT, { ...named('raw-manifest', 4), type: 'oci-dir' })).toEqual({
      install: hashed(4, 'oci-dir'),
    });
    expect(
      installSources('registry.example', COMPONENT, {
        ...named('helm-chart', 1),
        config: named('chart-config', 2),
        crds: named('chart-crds', 3),
      }),
    ).toEqual({ install: hashed(1), chart: { config: hashed(2), crds: hashed(3) } });
  });
});

describe('desiredManifest of a chart module (ADR 37)', () => {
  it('installs the chart as one release named after the module, with its config and CRDs layers, and no raw manifest', () => {
    const manifest = desiredManifest(
      kyma,
      source({ ...layer('helm-chart', 1), config: layer('chart-config', 2), crds: layer('chart-crds', 3) }),
      'k1-hello-chart',
    );
    expect(manifest.spec).toEqual({
      installs: [
        { name: 'hello-chart', source: { type: 'oci-ref', repo: 'registry.example', name: COMPONENT, ref: digest(1) } },
      ],
      config: spec(2),
      crds: spec(3),
      resource: {
        apiVersion: 'charts.example.com/v1',
        kind: 'Greeting',
        metadata: { name: manifest.metadata.name, namespace: 'kyma-system' },
        spec: {},
      },
      customResourcePolicy: 'CreateAndDelete',
      version: '0.1.0',
      localizedImages: [],
      remote: false,
    });
  });

  it('has the same name, labels, annotations and owner as the raw module would', () => {
    const chart = desiredManifest(kyma, source(layer('helm-chart', 1)), 'k1-hello-chart');
    const raw = desiredManifest(kyma, source({ ...layer('raw-manifest', 4), type: 'oci-dir' }), 'k1-hello-chart');
    expect(chart.metadata).toEqual(raw.metadata);
    expect(chart.spec).not.toHaveProperty('config');
    expect(chart.spec).not.toHaveProperty('crds');
    expect(raw.spec?.install).toEqual({ name: 'raw-manifest', source: spec(4, 'oci-dir') });
    expect(raw.spec).not.toHaveProperty('installs');
  });

  it('cuts a long module name to a Helm release name', () => {
    const name = `${'abcd-'.repeat(10)}xyz-defgh`;
    const manifest = desiredManifest(kyma, { ...source(layer('helm-chart', 1)), module: { name } }, 'k1-hello-chart');
    expect(manifest.spec?.installs?.[0]?.name).toBe(`${'abcd-'.repeat(10)}xyz`);
    expect(
      desiredManifest(
        kyma,
        { ...source(layer('helm-chart', 1)), module: { name: `${'abcd-'.repeat(10)}xy-zzz` } },
        'k1-hello-chart',
      ).spec?.installs?.[0]?.name,
    ).toBe(`${'abcd-'.repeat(10)}xy`);
  });
});
