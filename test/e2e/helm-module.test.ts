// Helm modules end to end (issue 25, ADR 37): the module CLI (a real child process) packages the greeter fixture chart
// with values, CRDs and a default CR and pushes it to the real registry; its printed ModuleTemplate and
// ModuleReleaseMeta go to the KCP (the command of docs/modules.md, with local paths); a Kyma asks for the module; render-manifest writes a chart Manifest from the
// descriptor and apply-remote renders it with the real helm onto a real runtime. A release bump upgrades the chart
// (0.1.0 → 0.2.0, values changed, an object pruned); removing the module from the Kyma removes everything.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { packageModule, pushModule } from '../../tools/module/package.ts';
import { moduleTemplate, releaseMeta } from '../../tools/module/cli/render.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  deleteLeftoverKymas,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';
import { documentedModuleCommand } from './module-cli-fixture.ts';

const CLI = join(import.meta.dirname, '../../tools/module/cli/main.ts');
const GREETER = fileURLToPath(new URL('../fixtures/charts/greeter', import.meta.url));
const WIDGET_CRD = fileURLToPath(new URL('../fixtures/charts/widget-crd.yaml', import.meta.url));
const MODULE = 'hello-chart';
const KYMA = 'helm-kyma';
const DEFAULT_CR = 'apiVersion: charts.example.com/v1\nkind: Greeting\nmetadata: {}\nspec: {text: default}\n';

let world: World;
let runtime: KubeClient;
let dir: string;

interface Seen {
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
}
const onRuntime = (kind: string, name: string, apiVersion = 'v1', namespace: string | undefined = 'kyma-system') =>
  runtime.get<Seen>({ apiVersion, kind, name, ...(namespace ? { namespace } : {}) }).catch(() => undefined);
const moduleOf = (k: Kyma) => k.status?.modules?.find((m) => m.name === MODULE);

/** `npm run module -- …` (the command of docs/modules.md) as a child process; its printed objects applied to the KCP. */
async function publish(version: string, chartDir: string, values: string): Promise<string> {
  const valuesFile = join(dir, `values-${version}.yaml`);
  await writeFile(valuesFile, values);
  const args = [
    ...(await documentedModuleCommand(
      {
        '--name': MODULE,
        '--version': version,
        '--chart': chartDir,
        '--values': valuesFile,
        '--crds': WIDGET_CRD,
        '--default-cr': join(dir, 'default-cr.yaml'),
        '--registry': `http://${inject('controlPlane').registryHost}`,
      },
      'A chart module from a ModuleTemplate',
    )),
    '--overwrite',
  ];
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], (error, out, err) =>
      error ? reject(new Error(`module CLI failed: ${err}`)) : resolve({ stdout: out, stderr: err }),
    );
  });
  for (const doc of parseAllDocuments(stdout)) await world.kcp.apply(doc.toJS() as never, 'e2e-user');
  return stderr;
}

beforeAll(async () => {
  world = await startWorld();
  const client = world.runtimes[0];
  if (!client) throw new Error('no runtime');
  runtime = client;
  dir = await mkdtemp(join(tmpdir(), 'helm-module-e2e-'));
  await writeFile(join(dir, 'default-cr.yaml'), DEFAULT_CR);
  // The same chart at 0.2.0, as a module author would bump it.
  await cp(GREETER, join(dir, 'greeter-0.2.0'), { recursive: true });
  const chartYaml = join(dir, 'greeter-0.2.0', 'Chart.yaml');
  await writeFile(chartYaml, (await readFile(chartYaml, 'utf8')).replace(/^version: 0\.1\.0$/m, 'version: 0.2.0'));
});

afterAll(async () => {
  if (world) {
    await deleteLeftoverKymas(world);
    for (const name of [MODULE, 'both-ways', 'bad-chart'])
      await world.kcp
        .delete({ apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name })
        .catch(() => undefined);
    for (const name of [`${MODULE}-0.1.0`, `${MODULE}-0.2.0`, 'both-ways-1.0.0', 'bad-chart-1.0.0']) {
      await world.kcp
        .delete({ apiVersion: API_VERSION, kind: 'ModuleTemplate', namespace: KCP_NAMESPACE, name })
        .catch(() => undefined);
    }
  }
  await world?.runner.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a module made of a Helm chart, packaged with the module CLI', () => {
  it('is installed for a Kyma that asks for it, upgraded by a release bump, and removed with it', async () => {
    const packaged = await publish('0.1.0', GREETER, 'message: from-module\nextra: true\nwidget: true\n');
    expect(packaged).toContain(
      `packaged kyma-project.io/module/${MODULE}:0.1.0: chart greeter 0.1.0 from ${GREETER} as release ${MODULE}`,
    );
    expect(packaged).toMatch(/\(manifest sha256:[a-f0-9]{64}, helm-chart sha256:[a-f0-9]{64}\)/);
    // The layers in the registry carry the media types docs/modules.md documents.
    const { manifest: pushed } = await world.registry.getManifest(
      `component-descriptors/kyma-project.io/module/${MODULE}`,
      '0.1.0',
    );
    expect(pushed.layers?.map((l) => [l.mediaType, l.annotations?.['org.opencontainers.image.title']])).toEqual([
      ['application/vnd.ocm.software.component-descriptor.v2+yaml+tar', undefined],
      ['application/vnd.cncf.helm.chart.content.v1.tar+gzip', 'helm-chart.tgz'],
      ['application/vnd.kyma-project.module.chart-config.v1+yaml', 'chart-config.yaml'],
      ['application/vnd.kyma-project.module.chart-crds.v1+yaml', 'chart-crds.yaml'],
      ['application/x-tar', 'default-cr.tar'],
    ]);

    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });
    const ready = await kymaInState(world, KYMA, 'Ready', (k) => moduleOf(k)?.state === 'Ready');
    expect(moduleOf(ready)).toMatchObject({ version: '0.1.0', channel: 'regular' });

    // render-manifest wrote a chart Manifest from the descriptor: one release, its config and CRDs layers.
    const [manifest] = await manifestsOf(world, KYMA);
    expect(manifest?.spec?.install).toBeUndefined();
    expect(manifest?.spec?.installs).toEqual([
      {
        name: MODULE,
        source: {
          type: 'oci-ref',
          repo: world.registry.host,
          name: `kyma-project.io/module/${MODULE}`,
          ref: expect.stringMatching(/^sha256:/),
        },
      },
    ]);
    expect(manifest?.spec).toMatchObject({
      version: '0.1.0',
      config: { type: 'oci-ref' },
      crds: { type: 'oci-ref' },
      resource: { kind: 'Greeting' },
    });

    expect((await onRuntime('ConfigMap', `${MODULE}-greeting`))?.data).toEqual({
      message: 'from-module',
      chart: '0.1.0',
    });
    expect(await onRuntime('ConfigMap', `${MODULE}-extra`)).toBeDefined();
    expect(
      (await onRuntime('Deployment', `${MODULE}-greeter`, 'apps/v1'))?.spec?.template?.spec?.containers?.[0]?.image,
    ).toBe('example.com/greeter:0.1.0');
    expect(await onRuntime('Widget', `${MODULE}-widget`, 'charts.example.com/v1')).toBeDefined();
    expect(
      await onRuntime('CustomResourceDefinition', 'widgets.charts.example.com', 'apiextensions.k8s.io/v1', undefined),
    ).toBeDefined();
    const cr = moduleOf(ready)?.resource?.metadata;
    expect(
      await onRuntime('Greeting', cr?.name ?? '', 'charts.example.com/v1', cr?.namespace ?? 'kyma-system'),
    ).toMatchObject({ spec: { text: 'default' } });
    expect(await onRuntime('Pod', `${MODULE}-test`)).toBeUndefined(); // the chart's test hook is not installed

    // A release bump: the ModuleReleaseMeta moves regular to 0.2.0 (new chart version, new values without `extra`).
    const bumped = await publish('0.2.0', join(dir, 'greeter-0.2.0'), 'message: upgraded\nwidget: true\n');
    expect(bumped).toContain('chart greeter 0.2.0');
    await kymaInState(world, KYMA, 'Ready', (k) => moduleOf(k)?.version === '0.2.0' && moduleOf(k)?.state === 'Ready');
    await eventually(
      'the chart upgraded on the runtime',
      async () =>
        (await onRuntime('Deployment', `${MODULE}-greeter`, 'apps/v1'))?.spec?.template?.spec?.containers?.[0]
          ?.image === 'example.com/greeter:0.2.0',
    );
    expect((await onRuntime('ConfigMap', `${MODULE}-greeting`))?.data).toEqual({ message: 'upgraded', chart: '0.2.0' });
    await eventually(
      'the ConfigMap the new values drop pruned',
      async () => (await onRuntime('ConfigMap', `${MODULE}-extra`)) === undefined,
    );

    // The Kyma no longer asks for the module: Manifest and every object of the chart go.
    await applyKyma(world, KYMA, { channel: 'regular', modules: [] });
    await eventually(
      'the chart module removed from the runtime',
      async () =>
        (await manifestsOf(world, KYMA)).length === 0 &&
        (await onRuntime('Deployment', `${MODULE}-greeter`, 'apps/v1')) === undefined &&
        (await onRuntime('ConfigMap', `${MODULE}-greeting`)) === undefined,
      120_000,
    );
    expect(await onRuntime('Widget', `${MODULE}-widget`, 'charts.example.com/v1')).toBeUndefined();
    await kymaInState(world, KYMA, 'Ready', (k) => moduleOf(k) === undefined);
  });

  it('refuses a descriptor with both a raw manifest and a chart, saying so in the module status; nothing is rendered', async () => {
    const blob = (name: string, n: number, mediaType: string) => ({
      name,
      type: 'blob',
      relation: 'local',
      version: '1.0.0',
      access: { type: 'localBlob', localReference: `sha256:${String(n).repeat(64)}`, mediaType },
    });
    const component = 'kyma-project.io/module/both-ways';
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'ModuleTemplate',
        metadata: {
          name: 'both-ways-1.0.0',
          namespace: KCP_NAMESPACE,
          labels: { 'operator.kyma-project.io/module-name': 'both-ways' },
        },
        spec: {
          moduleName: 'both-ways',
          version: '1.0.0',
          descriptor: {
            meta: { schemaVersion: 'v2' },
            component: {
              name: component,
              version: '1.0.0',
              repositoryContexts: [
                { type: 'OCIRegistry', baseUrl: world.registry.host, componentNameMapping: 'urlPath' },
              ],
              resources: [
                blob('raw-manifest', 1, 'application/x-tar'),
                blob('helm-chart', 2, 'application/vnd.cncf.helm.chart.content.v1.tar+gzip'),
              ],
            },
          },
        },
      } as never,
      'e2e-user',
    );
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'ModuleReleaseMeta',
        metadata: { name: 'both-ways', namespace: KCP_NAMESPACE },
        spec: {
          moduleName: 'both-ways',
          ocmComponentName: component,
          channels: [{ channel: 'regular', version: '1.0.0' }],
        },
      } as never,
      'e2e-user',
    );
    await connectRuntime(world, 'helm-kyma-both', 1);
    await applyKyma(world, 'helm-kyma-both', { channel: 'regular', modules: [{ name: 'both-ways' }] });
    const kyma = await kymaInState(world, 'helm-kyma-both', 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(kyma.status?.modules?.[0]?.message).toContain(
      `component ${component}:1.0.0 has both a raw-manifest and a helm-chart resource; a module installs one of them`,
    );
    expect(await manifestsOf(world, 'helm-kyma-both')).toEqual([]);
    await deleteKyma(world, 'helm-kyma-both');
    await kymaGone(world, 'helm-kyma-both');
  });

  it('reports a chart layer that is no packaged chart in the Manifest and module status, naming the release', async () => {
    const name = 'bad-chart';
    const pkg = packageModule({
      componentName: `kyma-project.io/module/${name}`,
      version: '1.0.0',
      registryBaseUrl: world.registry.host,
      chart: { archive: new TextEncoder().encode('kind: ConfigMap\n') },
    });
    await pushModule(world.registry, pkg);
    const request = {
      name,
      version: '1.0.0',
      componentName: pkg.componentName,
      namespace: KCP_NAMESPACE,
      channels: [{ channel: 'regular', version: '1.0.0' }],
      beta: false,
      internal: false,
      requiresDowntime: false,
    };
    for (const object of [
      moduleTemplate({ request: request as never, pkg, objects: [], defaultCr: undefined }),
      releaseMeta(request as never),
    ])
      await world.kcp.apply(object as never, 'e2e-user');
    await connectRuntime(world, 'helm-kyma-bad', 1);
    await applyKyma(world, 'helm-kyma-bad', { channel: 'regular', modules: [{ name }] });
    const kyma = await kymaInState(world, 'helm-kyma-bad', 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    const [manifest] = await manifestsOf(world, 'helm-kyma-bad');
    expect(manifest?.status?.lastOperation?.operation).toBe(
      `chart ${name}: the chart layer is not gzip-compressed (expected a packaged chart .tgz, as helm package writes)`,
    );
    expect(kyma.status?.modules?.[0]?.message ?? '').toContain('the chart layer is not gzip-compressed');
  });
});
