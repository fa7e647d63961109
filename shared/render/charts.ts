import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical.ts';
import type { Manifest } from '../core/manifest.ts';
import { chartRenders, installsProblem, isPinned, type ChartRender } from './helm-charts.ts';
import { chartLayerProblem, chartModuleYaml, renderChart } from './helm-module.ts';
import type { helmTemplate, HelmBinary } from './helm-template.ts';
import type { LayerCache } from '../oci/layer.ts';

const MAX_CACHED_RENDERS = 256;
/** A chart asked for by a version range (or none) is rendered again after this long: the repository may have a newer one. */
const UNPINNED_REUSE_MS = 5 * 60_000;

/** A module made of Helm charts (`spec.installs`, ADR 22) as one YAML stream: the CRDs layer, then every chart rendered
 * by the real Helm engine with its config entry; renders are reused while their inputs are the same. */
export class ChartRenderer {
  private readonly renders = new Map<string, { yaml: string; at: number }>();
  private readonly layers: LayerCache;
  private readonly binary: HelmBinary;

  constructor(layers: LayerCache, binary: HelmBinary) {
    this.layers = layers;
    this.binary = binary;
  }

  async moduleYaml(manifest: Manifest): Promise<{ yaml: string } | { error: string }> {
    const installs = manifest.spec?.installs ?? [];
    const problem = installsProblem(installs, this.layers.registry.host);
    if (problem) return { error: problem };
    const config = manifest.spec?.config
      ? await this.layers.text(manifest.spec.config, 'spec.config', 'config layer')
      : undefined;
    if (config && 'error' in config) return config;
    const crds = manifest.spec?.crds
      ? await this.layers.text(manifest.spec.crds, 'spec.crds', 'CRDs layer')
      : undefined;
    if (crds && 'error' in crds) return crds;
    let renders: ChartRender[];
    try {
      renders = chartRenders(installs, config?.text);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    const parts: string[] = [];
    for (const render of renders) {
      const rendered = await this.render(render);
      if ('error' in rendered) return rendered;
      parts.push(rendered.yaml);
    }
    return { yaml: chartModuleYaml(crds?.text, parts) };
  }

  private async render(render: ChartRender): Promise<{ yaml: string } | { error: string }> {
    const key = createHash('sha256').update(canonicalJson(render)).digest('hex');
    const hit = this.renders.get(key);
    if (hit && (isPinned(render.install.source) || Date.now() - hit.at < UNPINNED_REUSE_MS)) return { yaml: hit.yaml };
    const { source } = render.install;
    let chart: Parameters<typeof helmTemplate>[2];
    if (source.type === 'oci-ref') {
      const layer = await this.layers.bytes(source, `spec.installs[${render.install.name}].source`);
      if ('error' in layer) return layer;
      const problem = chartLayerProblem(layer.bytes);
      if (problem) return { error: `chart ${render.install.name}: ${problem}` };
      chart = { archive: layer.bytes };
    } else {
      chart = { name: source.chartName, repo: source.url, ...(source.version ? { version: source.version } : {}) };
    }
    try {
      const yaml = await renderChart(this.binary, render, chart);
      if (this.renders.size >= MAX_CACHED_RENDERS) this.renders.delete(this.renders.keys().next().value ?? '');
      this.renders.set(key, { yaml, at: Date.now() });
      return { yaml };
    } catch (error) {
      return { error: `chart ${render.install.name}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
