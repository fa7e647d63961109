import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FUNCTIONS } from '../../local/runner/functions.ts';
import { exportedMetricNames } from '../../test/monitoring/exported-metrics.ts';
import { dashboards, FUNCTION_NAMES, queriesOf } from './dashboards.ts';

const DIR = new URL('../../manifests/components/monitoring/dashboards/', import.meta.url);
const KUSTOMIZATION = new URL('../../manifests/components/monitoring/kustomization.yaml', import.meta.url);

describe('dashboards', () => {
  it('the committed files are what `npm run dashboards` writes: the fleet and one per function', async () => {
    expect([...FUNCTION_NAMES].sort()).toEqual(Object.keys(FUNCTIONS).sort());
    const built = dashboards();
    expect((await readdir(DIR)).sort()).toEqual(Object.keys(built).sort());
    for (const [file, board] of Object.entries(built))
      expect(JSON.parse(await readFile(new URL(file, DIR), 'utf8')), file).toEqual(board);
  });

  it('ship as ConfigMaps labelled for Grafana’s dashboard sidecar', async () => {
    const kustomization = parse(await readFile(KUSTOMIZATION, 'utf8')) as {
      configMapGenerator?: { files: string[]; options?: { labels?: Record<string, string> } }[];
    };
    const files = kustomization.configMapGenerator?.flatMap((g) => g.files) ?? [];
    expect(files.sort()).toEqual(
      Object.keys(dashboards())
        .map((f) => `dashboards/${f}`)
        .sort(),
    );
    expect(kustomization.configMapGenerator?.[0]?.options?.labels).toMatchObject({ grafana_dashboard: '1' });
  });

  it('query only metrics the fleet component and the functions export', async () => {
    const exported = await exportedMetricNames();
    for (const [file, board] of Object.entries(dashboards())) {
      const queries = queriesOf(board as Parameters<typeof queriesOf>[0]);
      expect(queries.length, file).toBeGreaterThan(2);
      for (const { panel, expr } of queries) {
        const names = [...expr.matchAll(/\b(lifecycle_[a-z_]+?)(?:_bucket)?\b/g)].map((m) => m[1] ?? '');
        expect(names.length, `${file} ${panel}`).toBeGreaterThan(0);
        expect(
          names.filter((n) => !exported.has(n)),
          `${file} ${panel}`,
        ).toEqual([]);
      }
    }
  });
});
