// Modules made of Helm charts (issue 10, ADR 22), rendered by the real helm (built from its Go module): a chart from a
// local chart repository and the same chart packaged as a layer in the real OCI registry, with a config layer (values,
// set flags, namespace) and a CRDs layer applied before the charts; upgrade, pruning, uninstall and bad input.
// The Manifests install into the KCP (single-cluster mode, ADR 21): the apply path is the one every runtime gets.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartInstall, ImageSpec, Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { componentRepository } from '../../shared/oci/reference.ts';
import { applyKyma, connectRuntime, eventually, kymaInState, startWorld, stopWorld, type World } from './world.ts';

const CHART_DIR = fileURLToPath(new URL('../fixtures/charts/greeter', import.meta.url));
const COMPONENT = 'charts.example.com/greeter';
const run = promisify(execFile);
let world: World;
let helm: string;
let work: string;
let server: Server;
let repoUrl: string;
const packaged = new Map<string, Uint8Array>();

const ref = (name: string) => ({ apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name });
const get = (kind: string, name: string, namespace?: string, apiVersion = 'v1') =>
  world.kcp.get<{
    metadata: { name: string };
    data?: Record<string, string>;
    spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  }>({ apiVersion, kind, name, namespace });
const manifestOf = (name: string) => world.kcp.get<Manifest>(ref(name));

/** Pushes bytes as a layer of the test component; the ImageSpec the Manifest names it by. */
async function layer(bytes: Uint8Array | string): Promise<ImageSpec> {
  const pushed = await world.registry.pushBlob(
    componentRepository(COMPONENT),
    typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes,
  );
  return { type: 'oci-ref', repo: world.registry.host, name: COMPONENT, ref: pushed.digest };
}

async function applyManifest(
  name: string,
  spec: { installs: ChartInstall[]; config?: ImageSpec; crds?: ImageSpec; version?: string },
  labels?: Record<string, string>,
): Promise<void> {
  // Without labels: a Manifest of its own in the KCP (single-cluster mode); with a Kyma's labels: on that Kyma's runtime.
  const metadata = { name, namespace: KCP_NAMESPACE, labels: labels ?? { [LABEL.inCluster]: 'true' } };
  await world.kcp.apply({ apiVersion: API_VERSION, kind: 'Manifest', metadata, spec } as never, 'e2e-user');
}

async function manifestIn(name: string, state: string, also: (m: Manifest) => boolean = () => true): Promise<Manifest> {
  let seen: Manifest | undefined;
  return eventually(
    () => `Manifest ${name} ${state} (last status: ${JSON.stringify(seen?.status)})`,
    async () => {
      seen = await manifestOf(name);
      return seen?.status?.state === state &&
        (seen.metadata.generation ?? 0) <= (seen.status.conditions?.[0]?.observedGeneration ?? 0) &&
        also(seen)
        ? seen
        : undefined;
    },
    120_000,
  );
}

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_IN_CLUSTER: 'true' });
  helm = (await import('vitest')).inject('controlPlane').binDir + '/helm';
  work = await mkdtemp(join(tmpdir(), 'kyma-charts-'));
  server = createServer((req, res) => {
    const file = join(work, 'repo', (req.url ?? '/').replace(/[^A-Za-z0-9._-]/g, ''));
    readFile(file).then(
      (body) => res.end(body),
      () => {
        res.statusCode = 404;
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  repoUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  // The fixture chart packaged by helm itself as 0.1.0 and 0.2.0, indexed as a chart repository.
  for (const version of ['0.1.0', '0.2.0']) {
    await run(helm, ['package', CHART_DIR, '--version', version, '--app-version', version, '-d', join(work, 'repo')]);
    packaged.set(version, await readFile(join(work, 'repo', `greeter-${version}.tgz`)));
  }
  await run(helm, ['repo', 'index', join(work, 'repo'), '--url', repoUrl]);
});

afterAll(async () => {
  for (const name of ['chart-repo', 'chart-oci', 'chart-bad', 'chart-remote'])
    await world?.kcp.delete(ref(name)).catch(() => undefined);
  await stopWorld(world);
  server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a module made of a chart from a chart repository', () => {
  it('renders it with the config layer and applies the CRDs layer first; values change prunes; a new chart version upgrades; deletion uninstalls', async () => {
    const crds = await layer(
      await readFile(fileURLToPath(new URL('../fixtures/charts/widget-crd.yaml', import.meta.url)), 'utf8'),
    );
    const config = await layer(
      'configs:\n  - name: web\n    namespace: greeter\n    createNamespace: true\n    values: {message: from-config}\n    set: ["extra=true", "widget=true"]\n',
    );
    const installs: ChartInstall[] = [
      { name: 'web', source: { type: 'helm-chart', chartName: 'greeter', url: repoUrl, version: '0.1.0' } },
    ];
    await applyManifest('chart-repo', { installs, config, crds, version: '0.1.0' });
    const ready = await manifestIn('chart-repo', 'Ready');
    expect(ready.status?.synced?.map((r) => `${r.kind}/${r.namespace}/${r.name}`).sort()).toEqual([
      'ConfigMap/greeter/web-extra',
      'ConfigMap/greeter/web-greeting',
      'CustomResourceDefinition//greetings.charts.example.com',
      'CustomResourceDefinition//widgets.charts.example.com',
      'Deployment/greeter/web-greeter',
      'Namespace//greeter',
      'Widget/greeter/web-widget',
    ]);
    expect((await get('ConfigMap', 'web-greeting', 'greeter'))?.data).toEqual({
      message: 'from-config',
      chart: '0.1.0',
    });
    expect(await get('Pod', 'web-test', 'greeter')).toBeUndefined(); // the Helm test hook is not part of the module

    const fewer = await layer(
      'configs:\n  - name: web\n    namespace: greeter\n    createNamespace: true\n    values: {message: from-config}\n    set: ["widget=true"]\n',
    );
    await applyManifest('chart-repo', { installs, config: fewer, crds, version: '0.1.0' });
    await eventually(
      'web-extra pruned after the values dropped it',
      async () => (await get('ConfigMap', 'web-extra', 'greeter')) === undefined,
    );

    await applyManifest('chart-repo', {
      installs: [{ name: 'web', source: { type: 'helm-chart', chartName: 'greeter', url: repoUrl, version: '0.2.0' } }],
      config: fewer,
      crds,
      version: '0.2.0',
    });
    await manifestIn('chart-repo', 'Ready', (m) => m.spec?.version === '0.2.0');
    expect(
      (await get('Deployment', 'web-greeter', 'greeter', 'apps/v1'))?.spec?.template?.spec?.containers?.[0]?.image,
    ).toBe('example.com/greeter:0.2.0');

    await world.kcp.delete(ref('chart-repo'));
    await eventually(
      'the chart module uninstalled',
      async () =>
        (await manifestOf('chart-repo')) === undefined &&
        (await get('Deployment', 'web-greeter', 'greeter', 'apps/v1')) === undefined,
    );
    expect(
      await get('Widget', 'web-widget', 'greeter', 'charts.example.com/v1').catch(() => undefined),
    ).toBeUndefined();
  });
});

describe('a module made of a chart packaged as a layer in the OCI registry', () => {
  it('pulls it by digest and installs it into kyma-system without a config layer; deletion uninstalls', async () => {
    const chart = await layer(packaged.get('0.1.0') ?? new Uint8Array());
    await applyManifest('chart-oci', {
      installs: [{ name: 'api', source: chart as ChartInstall['source'] }],
      version: '0.1.0',
    });
    await manifestIn('chart-oci', 'Ready');
    expect((await get('ConfigMap', 'api-greeting', 'kyma-system'))?.data).toEqual({ message: 'hello', chart: '0.1.0' });
    expect(await get('Deployment', 'api-greeter', 'kyma-system', 'apps/v1')).toBeDefined();
    await world.kcp.delete(ref('chart-oci'));
    await eventually(
      'the packaged chart uninstalled',
      async () =>
        (await manifestOf('chart-oci')) === undefined &&
        (await get('ConfigMap', 'api-greeting', 'kyma-system')) === undefined,
    );
  });
});

describe("a chart module for a Kyma's runtime (remote, written by someone else than render-manifest)", () => {
  it('installs on the runtime, shows in the Kyma status, is not pruned by render-manifest, and uninstalls', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'chart-k', 1);
    await applyKyma(world, 'chart-k', { channel: 'regular', modules: [] });
    await kymaInState(world, 'chart-k', 'Ready');
    const chart = await layer(packaged.get('0.2.0') ?? new Uint8Array());
    await applyManifest(
      'chart-remote',
      { installs: [{ name: 'edge', source: chart as ChartInstall['source'] }], version: '0.2.0' },
      { [LABEL.kymaName]: 'chart-k', [LABEL.moduleName]: 'greeter' },
    );
    await manifestIn('chart-remote', 'Ready');
    const onRuntime = (kind: string, name: string, apiVersion = 'v1') =>
      runtime.get<{ metadata: { name: string }; data?: Record<string, string> }>({
        apiVersion,
        kind,
        namespace: 'kyma-system',
        name,
      });
    expect((await onRuntime('ConfigMap', 'edge-greeting'))?.data).toEqual({ message: 'hello', chart: '0.2.0' });
    expect(
      await world.kcp.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: 'edge-greeting' }),
    ).toBeUndefined();
    await kymaInState(
      world,
      'chart-k',
      'Ready',
      (k) => k.status?.modules?.some((m) => m.name === 'greeter' && m.state === 'Ready') ?? false,
    );
    // A spec change makes render-manifest render the Kyma (and prune what it rendered and is no longer wanted).
    await applyKyma(world, 'chart-k', { channel: 'fast', modules: [] });
    await kymaInState(world, 'chart-k', 'Ready', (k) => k.status?.activeChannel === 'fast');
    expect((await manifestOf('chart-remote'))?.metadata.deletionTimestamp).toBeUndefined();
    await world.kcp.delete(ref('chart-remote'));
    await eventually(
      'the chart module removed from the runtime',
      async () =>
        (await manifestOf('chart-remote')) === undefined &&
        (await onRuntime('Deployment', 'edge-greeter', 'apps/v1')) === undefined,
    );
    await kymaInState(world, 'chart-k', 'Ready', (k) => !(k.status?.modules ?? []).some((m) => m.name === 'greeter'));
  });
});

describe('charts that cannot be rendered', () => {
  it("say why in the Manifest status: Helm's own error, a chart the repository lacks, credentials in a URL (not repeated)", async () => {
    const config = await layer('configs:\n  - name: web\n    set: ["replicas={{bad"]\n');
    await applyManifest('chart-bad', {
      installs: [
        { name: 'web', source: { type: 'helm-chart', chartName: 'nosuchchart', url: repoUrl, version: '0.1.0' } },
      ],
      config,
    });
    const missing = await manifestIn('chart-bad', 'Error');
    expect(missing.status?.lastOperation?.operation).toMatch(/^chart web: helm template failed: .*nosuchchart/);
    await applyManifest('chart-bad', {
      installs: [
        {
          name: 'web',
          source: {
            type: 'helm-chart',
            chartName: 'greeter',
            url: repoUrl.replace('http://', 'http://user:s3cret@'),
            version: '0.1.0',
          },
        },
      ],
    });
    const secret = await manifestIn('chart-bad', 'Error', (m) =>
      Boolean(m.status?.lastOperation?.operation.includes('credentials')),
    );
    expect(JSON.stringify(secret.status)).not.toContain('s3cret');
    await world.kcp.delete(ref('chart-bad'));
    await eventually('the broken Manifest deleted', async () => (await manifestOf('chart-bad')) === undefined);
  });
});
