// The manifest library's render step for charts (ADR 37): a chart (directory, .tgz file or bytes) with values and a
// CRDs stream → the module as one YAML stream for installModule, rendered as apply-remote renders a chart Manifest
// (helm-charts.ts: validation and `helm template` arguments; helm-template.ts: the real helm, isolated).
import { stringify } from 'yaml';
import type { ChartInstall } from '../core/manifest.ts';
import { REMOTE_NAMESPACE } from '../core/vocabulary.ts';
import { sha256Digest } from '../oci/manifest.ts';
import { loadChart, readPackagedChart, type PackagedChart } from './helm-archive.ts';
import { chartRenders, inReleaseNamespace, installsProblem, type ChartRender } from './helm-charts.ts';
import { helmTemplate, type HelmBinary } from './helm-template.ts';

/** A chart to render, as a Manifest's `spec.installs[]` entry, config entry and CRDs layer would give it. */
export interface ChartModuleInput {
  /** A chart directory or packaged chart (.tgz) path, or a packaged chart's bytes. */
  chart: string | Uint8Array;
  /** The Helm release name (lowercase letters, digits and '-', at most 53). */
  releaseName: string;
  /** The release namespace (default kyma-system); objects without a namespace go there. */
  namespace?: string;
  /** Make the namespace part of the module (`--create-namespace`). */
  createNamespace?: boolean;
  values?: Record<string, unknown>;
  /** `--set key=value` flags. */
  set?: string[];
  /** CRDs applied (and established) before the chart's objects: a YAML stream. */
  crds?: string;
  /** The helm binary (v3 or v4): a path, or a name looked up in `searchPath`. */
  helmBinary: string;
  searchPath?: string;
}

/** The chart module as a YAML stream (CRDs first, then `helm template` output); throws a one-line reason. */
export async function renderChartModule(input: ChartModuleInput): Promise<string> {
  const chart = await packaged(input.chart);
  const install: ChartInstall = {
    name: input.releaseName,
    source: { type: 'oci-ref', repo: 'library', name: chart.name, ref: sha256Digest(chart.bytes) },
  };
  const problem = installsProblem([install], 'library');
  if (problem) throw new Error(problem.replace('spec.installs[0].name', 'releaseName'));
  const entry = {
    name: install.name,
    values: input.values ?? {},
    set: input.set ?? [],
    namespace: input.namespace ?? REMOTE_NAMESPACE,
    createNamespace: input.createNamespace ?? false,
  };
  const [render] = chartRenders([install], stringify({ configs: [entry] }));
  if (!render) throw new Error('nothing to render');
  const objects = await renderChart({ file: input.helmBinary, searchPath: input.searchPath ?? '' }, render, {
    archive: chart.bytes,
  });
  return chartModuleYaml(input.crds, [objects]);
}

/** One chart rendered by the real helm, objects without a namespace put into the release's (apply-remote and the
 * library both render this way). */
export async function renderChart(
  binary: HelmBinary,
  render: ChartRender,
  chart: Parameters<typeof helmTemplate>[2],
): Promise<string> {
  return inReleaseNamespace(await helmTemplate(binary, render, chart), render.namespace, render.createNamespace);
}

/** PURE. The module's YAML stream: the CRDs layer first, then every chart's objects. */
export const chartModuleYaml = (crds: string | undefined, charts: string[]): string =>
  [...(crds ? [crds] : []), ...charts].join('\n---\n');

/** A pulled chart layer checked before helm sees it: '' when it is a packaged chart, else why not. */
export function chartLayerProblem(bytes: Uint8Array): string {
  try {
    readPackagedChart(bytes);
    return '';
  } catch (error) {
    return `the chart layer ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function packaged(chart: string | Uint8Array): Promise<PackagedChart> {
  try {
    return typeof chart === 'string' ? await loadChart(chart) : readPackagedChart(chart);
  } catch (error) {
    throw new Error(
      `chart ${typeof chart === 'string' ? `"${chart}": ` : ''}${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
