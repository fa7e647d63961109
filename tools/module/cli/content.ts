// What the module installs, read from the files the command line names: a raw manifest (--manifest), or a Helm chart
// (--chart, ADR 37) with its values (--values) and CRDs (--crds). Every refusal is an InputError naming flag and file.
import { parse, stringify } from 'yaml';
import { chartReleaseName } from '../../../shared/core/descriptors.ts';
import { loadChart, type PackagedChart } from '../../../shared/render/helm-archive.ts';
import { parseModuleObjects, type RuntimeObject } from '../../../shared/render/render.ts';
import type { ModuleSource } from '../package.ts';
import type { ChartRequest, PackageRequest } from './args.ts';
import { parseOrRefuse, readManifest, readText } from './inputs.ts';
import { InputError } from '../../../shared/host/input-rules.ts';

/** The install part of the package, the objects known before the cluster renders anything, and a line saying so. */
export interface ModuleInput {
  install: Pick<ModuleSource, 'rawManifest' | 'chart'>;
  objects: RuntimeObject[];
  summary: string;
}

export async function readModuleInput(request: PackageRequest): Promise<ModuleInput> {
  if (request.chart) return readChartInput(request.chart, request.name);
  const manifest = await readManifest(request.manifestPath ?? '');
  return {
    install: { rawManifest: manifest.text },
    objects: manifest.objects,
    summary: `${plural(manifest.objects.length, 'object')} from ${manifest.files.join(', ')}`,
  };
}

/** The chart packaged (a directory) or checked (a .tgz); values as the config layer of the release; CRDs as a stream. */
async function readChartInput(request: ChartRequest, moduleName: string): Promise<ModuleInput> {
  const chart = await loadChart(request.path).catch((error: unknown) => refused('--chart', request.path, error));
  const release = chartReleaseName(moduleName);
  const values = request.valuesPath ? await readValues(request.valuesPath) : undefined;
  const crds = request.crdsPath ? await readManifest(request.crdsPath, '--crds') : undefined;
  const notCrd = crds?.objects.find((o) => o.kind !== 'CustomResourceDefinition');
  if (notCrd)
    throw new InputError(
      `--crds "${request.crdsPath}": holds ${notCrd.kind} ${notCrd.metadata.name}; expected CustomResourceDefinitions only (the chart installs everything else)`,
    );
  const config = values ? stringify({ configs: [{ name: release, values }] }) : undefined;
  const chartCrds = parseOrRefuse(() => chartCrdObjects(chart), `--chart "${request.path}"`);
  return {
    install: { chart: { archive: chart.bytes, ...(config ? { config } : {}), ...(crds ? { crds: crds.text } : {}) } },
    objects: [...(crds?.objects ?? []), ...chartCrds],
    summary:
      `chart ${chart.name} ${chart.version} from ${request.path} as release ${release}` +
      `${values ? `, values from ${request.valuesPath}` : ''}${crds ? `, ${plural(crds.objects.length, 'CRD')} from ${crds.files.join(', ')}` : ''}`,
  };
}

/** A values file: one YAML mapping (what `helm --values` takes). */
export async function readValues(path: string): Promise<Record<string, unknown>> {
  const text = await readText('--values', path);
  const values = parseOrRefuse(() => parse(text, { maxAliasCount: 100 }) as unknown, `--values "${path}"`);
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new InputError(
      `--values "${path}": expected a YAML mapping of chart values (key: value), got ${Array.isArray(values) ? 'a list' : values === null ? 'nothing' : `a ${typeof values}`}`,
    );
  }
  return values as Record<string, unknown>;
}

/** The CRDs in the chart's `crds/` directory (helm installs them first): they tell whether the default CR is cluster-scoped. */
function chartCrdObjects(chart: PackagedChart): RuntimeObject[] {
  return chart.files
    .filter((f) => /^crds\/[^/]+\.ya?ml$/.test(f.path))
    .flatMap((f) => parseModuleObjects(new TextDecoder().decode(f.data)));
}

function refused(flag: string, path: string, error: unknown): never {
  throw new InputError(`${flag} "${path}": ${error instanceof Error ? error.message : String(error)}`);
}

export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
