// The manifest library's render step for charts (issue 25, ADR 37) as another operator uses it: imported by package
// name, the greeter fixture chart rendered by the real helm (a chart directory, then a .tgz made by `helm package`),
// installed on a real runtime API server with installModule, upgraded (pruning what the new values drop), uninstalled.
// No lifecycle functions run here.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  connectCluster,
  installModule,
  renderChartModule,
  uninstallModule,
  type ModuleState,
  type RenderedModule,
  type RuntimeObject,
  type TargetCluster,
} from 'kyma-lifecycle-functions/library';
import { eventually } from './world.ts';

const GREETER = fileURLToPath(new URL('../fixtures/charts/greeter', import.meta.url));
const WIDGET_CRD = fileURLToPath(new URL('../fixtures/charts/widget-crd.yaml', import.meta.url));
const NS = 'greeter-lib';
const run = promisify(execFile);
let cluster: TargetCluster;
let helm: string;
let work: string;

type Seen = RuntimeObject & {
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
};
const get = (kind: string, name: string, apiVersion = 'v1') =>
  cluster.client.get<Seen>({ apiVersion, kind, namespace: NS, name }).catch(() => undefined);

async function reconcile(module: RenderedModule, previous: ModuleState['synced']): Promise<ModuleState> {
  let last: ModuleState | undefined;
  return eventually(
    () => `module Ready (last: ${JSON.stringify(last && { state: last.state, reason: last.reason })})`,
    async () => {
      last = await installModule(cluster, module, last?.synced ?? previous);
      return last.state === 'Ready' ? last : undefined;
    },
    90_000,
  );
}

beforeAll(async () => {
  cluster = await connectCluster(inject('controlPlane').runtimes[1] ?? '');
  helm = `${inject('controlPlane').binDir}/helm`;
  work = await mkdtemp(join(tmpdir(), 'library-charts-'));
});

afterAll(async () => {
  for (const crd of ['widgets.charts.example.com', 'greetings.charts.example.com']) {
    await cluster?.client
      .delete({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd })
      .catch(() => undefined);
  }
  await cluster?.client.delete({ apiVersion: 'v1', kind: 'Namespace', name: NS }).catch(() => undefined);
  if (work) await rm(work, { recursive: true, force: true });
});

describe("renderChartModule, the library's render step for charts", () => {
  it('renders a chart directory and a packaged chart with the real helm; installModule installs, upgrades and prunes; uninstall removes all', async () => {
    const crds = await readFile(WIDGET_CRD, 'utf8');
    const first = await renderChartModule({
      chart: GREETER,
      releaseName: 'lib',
      namespace: NS,
      createNamespace: true,
      values: { message: 'from-library', extra: true, widget: true },
      crds,
      helmBinary: helm,
    });
    const installed = await reconcile({ name: 'greeter', namespace: 'ops', manifest: first }, []);
    expect(installed.synced.map((r) => `${r.kind}/${r.namespace}/${r.name}`).sort()).toEqual([
      `ConfigMap/${NS}/lib-extra`,
      `ConfigMap/${NS}/lib-greeting`,
      'CustomResourceDefinition//greetings.charts.example.com',
      'CustomResourceDefinition//widgets.charts.example.com',
      `Deployment/${NS}/lib-greeter`,
      `Namespace//${NS}`,
      `Widget/${NS}/lib-widget`,
    ]);
    expect((await get('ConfigMap', 'lib-greeting'))?.data).toEqual({ message: 'from-library', chart: '0.1.0' });
    expect((await get('ConfigMap', 'lib-greeting'))?.metadata.labels?.['app.kubernetes.io/component']).toBe('greeter');

    // 0.2.0 packaged by helm itself, handed over as bytes; the new values drop `extra`.
    await cp(GREETER, join(work, 'greeter'), { recursive: true });
    await mkdir(join(work, 'out'));
    await run(helm, ['package', join(work, 'greeter'), '--version', '0.2.0', '-d', join(work, 'out')], {
      env: { HOME: work, PATH: '/usr/bin:/bin' },
    });
    const archive = new Uint8Array(await readFile(join(work, 'out', 'greeter-0.2.0.tgz')));
    const second = await renderChartModule({
      chart: archive,
      releaseName: 'lib',
      namespace: NS,
      createNamespace: true,
      values: { message: 'upgraded', widget: true },
      crds,
      helmBinary: helm,
    });
    const upgraded = await reconcile({ name: 'greeter', namespace: 'ops', manifest: second }, installed.synced);
    expect((await get('Deployment', 'lib-greeter', 'apps/v1'))?.spec?.template?.spec?.containers?.[0]?.image).toBe(
      'example.com/greeter:0.2.0',
    );
    expect((await get('ConfigMap', 'lib-greeting'))?.data).toEqual({ message: 'upgraded', chart: '0.2.0' });
    expect(await get('ConfigMap', 'lib-extra')).toBeUndefined();

    const gone = await eventually(
      'uninstalled',
      async () => {
        const step = await uninstallModule(cluster, upgraded.synced);
        return step.done ? step : undefined;
      },
      90_000,
    );
    expect(gone.remaining).toEqual([]);
    expect(await get('Deployment', 'lib-greeter', 'apps/v1')).toBeUndefined();
  });

  it("says why a chart cannot be rendered: release name, archive, Helm's own error", async () => {
    await expect(renderChartModule({ chart: GREETER, releaseName: 'Bad_Name', helmBinary: helm })).rejects.toThrow(
      'releaseName must be a Helm release name',
    );
    await expect(
      renderChartModule({ chart: new TextEncoder().encode('not a chart'), releaseName: 'lib', helmBinary: helm }),
    ).rejects.toThrow('chart is not gzip-compressed');
    await expect(
      renderChartModule({ chart: join(work, 'absent'), releaseName: 'lib', helmBinary: helm }),
    ).rejects.toThrow(`chart "${join(work, 'absent')}": no such file or directory`);
    const broken = join(work, 'broken');
    await mkdir(join(broken, 'templates'), { recursive: true });
    await writeFile(join(broken, 'Chart.yaml'), 'apiVersion: v2\nname: broken\nversion: 0.1.0\n');
    await writeFile(
      join(broken, 'templates', 'cm.yaml'),
      'kind: ConfigMap\ndata: {a: {{ .Values.a | nosuchfunction }}}\n',
    );
    await expect(renderChartModule({ chart: broken, releaseName: 'lib', helmBinary: helm })).rejects.toThrow(
      /^helm template failed: .*nosuchfunction/,
    );
  });
});
