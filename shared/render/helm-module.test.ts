import { describe, expect, it } from 'vitest';
import { packChart } from './helm-archive.ts';
import { chartLayerProblem, chartModuleYaml } from './helm-module.ts';

const chartYaml = { path: 'Chart.yaml', data: new TextEncoder().encode('apiVersion: v2\nname: a\nversion: 1.0.0\n') };

describe('chartLayerProblem', () => {
  it('accepts a packaged chart and says why anything else is not one', () => {
    expect(chartLayerProblem(packChart([chartYaml]).bytes)).toBe('');
    expect(chartLayerProblem(new TextEncoder().encode('kind: ConfigMap\n'))).toBe(
      'the chart layer is not gzip-compressed (expected a packaged chart .tgz, as helm package writes)',
    );
  });
});

describe('chartModuleYaml', () => {
  it('puts the CRDs first, then every chart', () => {
    expect(chartModuleYaml('crds: 1', ['a: 1', 'b: 2'])).toBe('crds: 1\n---\na: 1\n---\nb: 2');
    expect(chartModuleYaml(undefined, ['a: 1'])).toBe('a: 1');
  });
});
