import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readPackagedChart } from '../../../shared/render/helm-archive.ts';
import { parseRequest, type PackageRequest } from './args.ts';
import { readModuleInput } from './content.ts';

const GREETER = fileURLToPath(new URL('../../../test/fixtures/charts/greeter', import.meta.url));
const WIDGET_CRD = fileURLToPath(new URL('../../../test/fixtures/charts/widget-crd.yaml', import.meta.url));
let dir: string;

async function file(name: string, text: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  return path;
}

function request(...flags: string[]): PackageRequest {
  const parsed = parseRequest(['--name', 'hello-chart', '--version', '0.1.0', '--registry', 'r.example', ...flags]);
  if (parsed === 'help') throw new Error('help');
  return parsed;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'module-chart-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readModuleInput with --chart', () => {
  it('packages the chart directory, writes the values as the config layer of release <module>, and takes the CRDs', async () => {
    const values = await file('values.yaml', 'message: from-values\nextra: true\n');
    const input = await readModuleInput(request('--chart', GREETER, '--values', values, '--crds', WIDGET_CRD));
    const chart = readPackagedChart(input.install.chart?.archive ?? new Uint8Array());
    expect(chart).toMatchObject({ name: 'greeter', version: '0.1.0' });
    expect(chart.files.map((f) => f.path)).toContain('templates/deployment.yaml');
    expect(parse(input.install.chart?.config ?? '')).toEqual({
      configs: [{ name: 'hello-chart', values: { message: 'from-values', extra: true } }],
    });
    expect(input.install.chart?.crds).toContain('widgets.charts.example.com');
    expect(input.install).not.toHaveProperty('rawManifest');
    expect(input.objects.map((o) => o.metadata.name)).toEqual([
      'widgets.charts.example.com',
      'greetings.charts.example.com',
    ]);
    expect(input.summary).toBe(
      `chart greeter 0.1.0 from ${GREETER} as release hello-chart, values from ${values}, 1 CRD from ${WIDGET_CRD}`,
    );
  });

  it('takes a packaged chart as it is, without config or CRDs layers', async () => {
    const packaged = (await readModuleInput(request('--chart', GREETER))).install.chart?.archive ?? new Uint8Array();
    const tgz = await file('greeter-0.1.0.tgz', packaged);
    const input = await readModuleInput(request('--chart', tgz));
    expect(Object.keys(input.install.chart ?? {})).toEqual(['archive']);
    expect(Buffer.from(input.install.chart?.archive ?? [])).toEqual(Buffer.from(packaged));
  });

  it.each([
    [
      'a chart directory without Chart.yaml',
      async () => ['--chart', join(await file('empty/values.yaml', 'a: 1\n'), '..')],
      'empty": has no Chart.yaml (a Helm chart needs one at its top)',
    ],
    [
      'a chart file that is not gzip',
      async () => ['--chart', await file('chart.tgz', 'apiVersion: v2\n')],
      'chart.tgz": is not gzip-compressed (expected a packaged chart .tgz, as helm package writes)',
    ],
    [
      'a gzip file that is no tar',
      async () => ['--chart', await file('notar.tgz', gzipSync('hello'))],
      'notar.tgz": is not a gzip-compressed tar archive (',
    ],
    [
      'values that are a list',
      async () => ['--chart', GREETER, '--values', await file('list.yaml', '- a\n- b\n')],
      'list.yaml": expected a YAML mapping of chart values (key: value), got a list',
    ],
    [
      'values that are a scalar',
      async () => ['--chart', GREETER, '--values', await file('scalar.yaml', 'hello\n')],
      'scalar.yaml": expected a YAML mapping of chart values (key: value), got a string',
    ],
    [
      'values that are not YAML',
      async () => ['--chart', GREETER, '--values', await file('broken.yaml', 'a: [b\n')],
      '--values "',
    ],
    [
      'missing values',
      async () => ['--chart', GREETER, '--values', join(dir, 'absent.yaml')],
      'absent.yaml": cannot be read (no such file)',
    ],
    [
      'CRDs that hold other objects',
      async () => [
        '--chart',
        GREETER,
        '--crds',
        await file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'),
      ],
      'cm.yaml": holds ConfigMap c; expected CustomResourceDefinitions only',
    ],
  ])('refuses %s, naming the flag and file', async (_, flags, message) => {
    await expect(readModuleInput(request(...(await flags())))).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', message: expect.stringContaining(message) }),
    );
  });
});
