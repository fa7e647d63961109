// manifests/ with the monitoring component enabled, rendered by the real kustomize: the PrometheusRule and the
// dashboards' ConfigMap join the rest, and everything passes a strict server-side dry-run on a real kube-apiserver
// serving Knative's CRDs and the Prometheus Operator's PrometheusRule CRD (from its published Go module).
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startCluster, type Cluster } from '../../local/controlplane/index.ts';
import { MANIFESTS_DIR } from '../../local/runner/local-runner.ts';
import { testBinaries } from '../deploy/audited-kcp.ts';
import { KNATIVE_RELEASES, knativeCrds, moduleDir } from '../deploy/knative-crds.ts';
import { kubectlOk } from '../deploy/kubectl.ts';
import { dryRunProblems, render, toYaml, type Doc } from '../deploy/validate.ts';

const PROMETHEUS_OPERATOR = { module: 'github.com/prometheus-operator/prometheus-operator', version: 'v0.85.0' };
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster({
    name: 'monitoring-schemas',
    runDir: inject('controlPlane').runDir,
    binaries: testBinaries(),
  });
  const dir = await moduleDir(PROMETHEUS_OPERATOR.module, PROMETHEUS_OPERATOR.version);
  const file = join(dir, 'example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml');
  const crds = [
    ...(await knativeCrds(KNATIVE_RELEASES[1])),
    ...parseAllDocuments(await readFile(file, 'utf8')).map((d) => d.toJSON() as Doc),
  ] as Doc[];
  await kubectlOk(['apply', '--server-side', '--field-manager=crds', '-f', '-'], { cluster, stdin: toYaml(crds) });
  await kubectlOk(
    ['wait', '--for=condition=Established', '--timeout=60s', ...crds.map((c) => `crd/${c.metadata.name}`)],
    {
      cluster,
    },
  );
  await kubectlOk(['create', 'namespace', 'kcp-system'], { cluster });
});

afterAll(async () => {
  await cluster?.stop();
});

describe('the monitoring component', () => {
  it('adds the PrometheusRule and the dashboards for Grafana’s sidecar; everything still valid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'manifests-monitoring-'));
    await cp(MANIFESTS_DIR, join(dir, 'manifests'), { recursive: true });
    const kustomization = join(dir, 'manifests', 'kustomization.yaml');
    await writeFile(
      kustomization,
      `${await readFile(kustomization, 'utf8')}\ncomponents:\n  - components/monitoring\n`,
    );
    const docs = await render(join(dir, 'manifests'));
    const rule = docs.find((d) => d.kind === 'PrometheusRule');
    expect((rule?.spec?.groups as { rules: unknown[] }[] | undefined)?.[0]?.rules.length).toBeGreaterThan(5);
    const dashboards = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'kyma-lifecycle-dashboards');
    expect(dashboards?.metadata.labels?.grafana_dashboard).toBe('1');
    expect(Object.keys((dashboards as { data?: object } | undefined)?.data ?? {})).toHaveLength(7);
    expect(await dryRunProblems(cluster, docs)).toBe('');
    const broken = docs.map((d) => (d.kind === 'PrometheusRule' ? { ...d, spec: { groups: [{ rules: [] }] } } : d));
    expect(await dryRunProblems(cluster, broken)).toMatch(/PrometheusRule/);
  }, 300_000);
});
