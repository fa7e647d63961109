// The Grafana dashboards shipped in manifests/components/monitoring/dashboards/ (plain JSON data; Grafana is not a
// dependency): the fleet overview and one per function, on the metrics the fleet component and the functions export.
// `npm run dashboards` writes them; dashboards.test.ts fails when the committed files differ from what this builds.

/** A panel: its title, kind and PromQL queries (legend per query). */
interface Panel {
  title: string;
  type: 'stat' | 'timeseries' | 'table';
  queries: readonly { expr: string; legend: string }[];
  unit?: string;
}

export const FUNCTION_NAMES = [
  'resolve-template',
  'render-manifest',
  'apply-remote',
  'aggregate-status',
  'purge',
  'resync',
] as const;

const FLEET: readonly Panel[] = [
  {
    title: 'Kymas by state',
    type: 'stat',
    queries: [{ expr: 'sum by (state) (lifecycle_mgr_kyma_state)', legend: '{{state}}' }],
  },
  {
    title: 'Module installs by state',
    type: 'stat',
    queries: [{ expr: 'sum by (state) (lifecycle_module_installs)', legend: '{{state}}' }],
  },
  {
    title: 'Runtimes unreachable',
    type: 'stat',
    queries: [{ expr: 'sum(lifecycle_kyma_runtime_unreachable)', legend: 'unreachable' }],
  },
  {
    title: 'Version spread (installs by module and version)',
    type: 'timeseries',
    queries: [
      { expr: 'sum by (module_name, version) (lifecycle_module_installs)', legend: '{{module_name}} {{version}}' },
    ],
  },
  {
    title: 'Installs waiting for their channel’s version',
    type: 'timeseries',
    queries: [
      {
        expr: 'sum by (module_name, version) (lifecycle_module_release_pending)',
        legend: '{{module_name}} → {{version}}',
      },
    ],
  },
  {
    title: 'Call duration p99 by function',
    type: 'timeseries',
    unit: 's',
    queries: [
      {
        expr: 'histogram_quantile(0.99, sum by (le, fn) (rate(lifecycle_function_duration_seconds_bucket[5m])))',
        legend: '{{fn}}',
      },
    ],
  },
  {
    title: 'Retries by reason',
    type: 'timeseries',
    queries: [
      {
        expr: 'sum by (requeue_reason, requeue_type) (rate(lifecycle_mgr_requeue_reason_total[5m]))',
        legend: '{{requeue_reason}} ({{requeue_type}})',
      },
    ],
  },
  {
    title: 'Events given up (dead letters) by function',
    type: 'timeseries',
    queries: [{ expr: 'sum by (fn) (increase(lifecycle_dead_letters_total[1h]))', legend: '{{fn}}' }],
  },
  {
    title: 'Kymas not Ready',
    type: 'table',
    queries: [
      { expr: 'max by (kyma_name, state) (lifecycle_mgr_kyma_state{state!="Ready"}) == 1', legend: '{{kyma_name}}' },
    ],
  },
];

function functionPanels(fn: string): Panel[] {
  const calls = `lifecycle_function_invocations_total{fn="${fn}"}`;
  const buckets = `sum by (le) (rate(lifecycle_function_duration_seconds_bucket{fn="${fn}"}[5m]))`;
  return [
    {
      title: 'Calls per second by answer',
      type: 'timeseries',
      queries: [{ expr: `sum by (status) (rate(${calls}[5m]))`, legend: '{{status}}' }],
    },
    {
      title: 'Call duration',
      type: 'timeseries',
      unit: 's',
      queries: [0.5, 0.9, 0.99].map((q) => ({ expr: `histogram_quantile(${q}, ${buckets})`, legend: `p${q * 100}` })),
    },
    {
      title: 'Failing calls (400, 500) per second',
      type: 'timeseries',
      queries: [
        {
          expr: `sum(rate(lifecycle_function_invocations_total{fn="${fn}",status=~"400|500"}[5m]))`,
          legend: 'failing',
        },
      ],
    },
  ];
}

/** Grafana's dashboard model for `panels`, two to a row. */
function dashboard(uid: string, title: string, panels: readonly Panel[]): object {
  return {
    uid,
    title,
    tags: ['kyma-lifecycle'],
    schemaVersion: 39,
    time: { from: 'now-6h', to: 'now' },
    refresh: '1m',
    templating: { list: [{ name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Prometheus' }] },
    panels: panels.map((p, i) => ({
      id: i + 1,
      type: p.type,
      title: p.title,
      gridPos: { x: (i % 2) * 12, y: Math.floor(i / 2) * 8, w: 12, h: 8 },
      datasource: { type: 'prometheus', uid: '${datasource}' },
      ...(p.unit ? { fieldConfig: { defaults: { unit: p.unit }, overrides: [] } } : {}),
      targets: p.queries.map((q, j) => ({
        refId: String.fromCharCode(65 + j),
        expr: q.expr,
        legendFormat: q.legend,
        ...(p.type === 'table' ? { instant: true, format: 'table' } : {}),
      })),
    })),
  };
}

/** File name → dashboard, as committed. */
export function dashboards(): Record<string, object> {
  return {
    'fleet.json': dashboard('kyma-lifecycle-fleet', 'Kyma lifecycle: fleet', FLEET),
    ...Object.fromEntries(
      FUNCTION_NAMES.map((fn) => [
        `${fn}.json`,
        dashboard(`kyma-lifecycle-${fn}`, `Kyma lifecycle: ${fn}`, functionPanels(fn)),
      ]),
    ),
  };
}

/** Every PromQL query of `dashboard` (a parsed file). */
export function queriesOf(dashboard: {
  panels?: { title: string; targets?: { expr: string }[] }[];
}): { panel: string; expr: string }[] {
  return (dashboard.panels ?? []).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
}
