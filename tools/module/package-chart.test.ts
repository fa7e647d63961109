import { describe, expect, it } from 'vitest';
import { sha256Digest } from '../../shared/oci/manifest.ts';
import { moduleContent, parseComponentDescriptor } from '../../shared/oci/ocm.ts';
import { packageModule } from './package.ts';

const archive = new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3]);
const CONFIG = 'configs:\n  - name: greeter\n    values: {message: hi}\n';
const CRDS =
  'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.charts.example.com}\n';
const source = { componentName: 'kyma-project.io/module/greeter', version: '0.1.0', registryBaseUrl: 'r.example' };

describe('packageModule of a module made of a Helm chart (ADR 37)', () => {
  it('holds the chart, config and CRDs as local blobs of their media types, no raw-manifest', () => {
    const pkg = packageModule({
      ...source,
      chart: { archive, config: CONFIG, crds: CRDS },
      defaultCr: { kind: 'Greeting' },
    });
    expect(pkg.blobs.map((b) => [b.resourceName, b.resourceType, b.mediaType, b.fileName])).toEqual([
      ['helm-chart', 'helmChart', 'application/vnd.cncf.helm.chart.content.v1.tar+gzip', 'helm-chart.tgz'],
      ['chart-config', 'blob', 'application/vnd.kyma-project.module.chart-config.v1+yaml', 'chart-config.yaml'],
      ['chart-crds', 'blob', 'application/vnd.kyma-project.module.chart-crds.v1+yaml', 'chart-crds.yaml'],
      ['default-cr', 'directoryTree', 'application/x-tar', 'default-cr.tar'],
    ]);
    expect(pkg.blobs[0]?.bytes).toEqual(archive);
    expect(new TextDecoder().decode(pkg.blobs[1]?.bytes)).toBe(CONFIG);
  });

  it('writes a descriptor that the lifecycle manager reads as a chart module', () => {
    const pkg = packageModule({ ...source, chart: { archive, config: CONFIG } });
    const layer = (name: string, bytes: Uint8Array | string) => ({
      name,
      type: 'oci-ref',
      componentName: source.componentName,
      ref: sha256Digest(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes),
    });
    expect(moduleContent(parseComponentDescriptor(pkg.descriptorYaml)).install).toEqual({
      ...layer('helm-chart', archive),
      config: layer('chart-config', CONFIG),
    });
  });

  it('refuses to package both a raw manifest and a chart, or neither', () => {
    expect(() => packageModule({ ...source, rawManifest: CRDS, chart: { archive } })).toThrow(
      'a module is made of a raw manifest or of a Helm chart (exactly one)',
    );
    expect(() => packageModule(source)).toThrow('exactly one');
  });
});
