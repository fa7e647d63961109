import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { installCrds, lifecycleCrds } from '../local/controlplane/crds.ts';
import { clusters } from './clusters.ts';

const GROUP = 'operator.kyma-project.io';
const VERSION = 'v1beta2';
const NAMESPACE = 'kcp-system';
const { kcp } = clusters();
const custom = kcp.makeApiClient(CustomObjectsApi);

const kyma = (spec: object) => ({ kind: 'Kyma', plural: 'kymas', spec });
const template = (spec: object) => ({ kind: 'ModuleTemplate', plural: 'moduletemplates', spec });
const releaseMeta = (spec: object) => ({ kind: 'ModuleReleaseMeta', plural: 'modulereleasemetas', spec });
const manifest = (spec: object) => ({ kind: 'Manifest', plural: 'manifests', spec });

const mrmBase = { moduleName: 'template-operator', ocmComponentName: 'kyma-project.io/module/template-operator' };
const install = {
  name: 'raw-manifest',
  source: { repo: 'localhost:5000', name: 'kyma-project.io/module/x', ref: 'sha256:00', type: 'oci-ref' },
};

/** Creates the object as a server-side dry run: all validation runs, nothing is stored. */
async function dryRunCreate(example: { kind: string; plural: string; spec: object }, name = 'example') {
  return custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    namespace: NAMESPACE,
    plural: example.plural,
    dryRun: 'All',
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: example.kind, metadata: { name }, spec: example.spec },
  }) as Promise<KubernetesObject & { spec: Record<string, unknown> }>;
}

beforeAll(async () => {
  await installCrds(kcp);
  await kcp
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: NAMESPACE } } })
    .catch(() => undefined);
});

describe('lifecycle CRDs on a real kube-apiserver', () => {
  it('are all Established, namespaced, served as v1beta2 with a status subresource and printer columns', async () => {
    const api = kcp.makeApiClient(ApiextensionsV1Api);
    const names = (await lifecycleCrds()).map((c) => c.metadata?.name ?? '');
    expect(names.sort()).toEqual([
      'kymas.operator.kyma-project.io',
      'manifests.operator.kyma-project.io',
      'modulereleasemetas.operator.kyma-project.io',
      'moduletemplates.operator.kyma-project.io',
    ]);
    for (const name of names) {
      const crd = await api.readCustomResourceDefinition({ name });
      expect(crd.spec.scope).toBe('Namespaced');
      expect(crd.spec.versions.map((v) => v.name)).toEqual([VERSION]);
      expect(crd.spec.versions[0]?.subresources?.status).toBeDefined();
      expect(crd.spec.versions[0]?.additionalPrinterColumns?.length).toBeGreaterThan(0);
    }
    const shortNames = async (name: string) => (await api.readCustomResourceDefinition({ name })).spec.names.shortNames;
    expect(await shortNames('moduletemplates.operator.kyma-project.io')).toEqual(['mt']);
    expect(await shortNames('modulereleasemetas.operator.kyma-project.io')).toEqual(['mrm']);
  });

  it.each([
    [
      'Kyma with modules',
      kyma({ channel: 'regular', modules: [{ name: 'keda', channel: 'fast' }, { name: 'btp-operator' }] }),
    ],
    ['Kyma without modules', kyma({ channel: 'fast', skipMaintenanceWindows: true })],
    [
      'ModuleTemplate',
      template({
        moduleName: 'template-operator',
        version: '1.0.1-rc.1',
        channel: '',
        requiresDowntime: false,
        data: {
          apiVersion: 'operator.kyma-project.io/v1alpha1',
          kind: 'Sample',
          metadata: { name: 'sample' },
          spec: { a: 1 },
        },
        manager: { group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'kyma-system', name: 'manager' },
        resources: [{ name: 'rawManifest', link: 'https://example.com/manifest.yaml' }],
        info: { repository: 'https://example.com/repo', documentation: 'https://example.com/docs', icons: [] },
      }),
    ],
    [
      'ModuleReleaseMeta with channels',
      releaseMeta({
        ...mrmBase,
        channels: [
          { channel: 'regular', version: '1.0.1' },
          { channel: 'fast', version: '1.2.0' },
        ],
      }),
    ],
    ['mandatory ModuleReleaseMeta', releaseMeta({ ...mrmBase, mandatory: { version: '1.0.1+build.5' } })],
    [
      'Manifest',
      manifest({
        install,
        version: '1.0.1',
        customResourcePolicy: 'Ignore',
        resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      }),
    ],
    [
      'Manifest of Helm charts (seed 004)',
      manifest({
        remote: false,
        installs: [
          {
            name: 'redis',
            source: { type: 'helm-chart', chartName: 'redis', url: 'https://charts.example.com', version: '1.2.3' },
          },
          {
            name: 'web',
            source: {
              type: 'oci-ref',
              repo: 'registry.example.com',
              name: 'kyma-project.io/module/web',
              ref: `sha256:${'a'.repeat(64)}`,
            },
          },
        ],
        config: {
          type: 'oci-ref',
          repo: 'registry.example.com',
          name: 'kyma-project.io/module/web',
          ref: `sha256:${'b'.repeat(64)}`,
        },
        crds: {
          type: 'oci-ref',
          repo: 'registry.example.com',
          name: 'kyma-project.io/module/web',
          ref: `sha256:${'c'.repeat(64)}`,
        },
      }),
    ],
  ])('accepts a valid %s', async (_, example) => {
    await expect(dryRunCreate(example)).resolves.toMatchObject({ kind: example.kind });
  });

  it('defaults a Kyma module to CreateAndDelete and managed', async () => {
    const created = await dryRunCreate(kyma({ channel: 'regular', modules: [{ name: 'keda' }] }));
    expect(created.spec.modules).toEqual([{ name: 'keda', customResourcePolicy: 'CreateAndDelete', managed: true }]);
  });

  it.each([
    ['Kyma without channel', kyma({ modules: [] }), 'spec.channel: Required value'],
    ['Kyma channel with capitals', kyma({ channel: 'Regular' }), 'spec.channel'],
    ['Kyma channel shorter than 3', kyma({ channel: 'ab' }), 'spec.channel'],
    ['Kyma channel longer than 32', kyma({ channel: 'a'.repeat(33) }), 'spec.channel'],
    [
      'Kyma module channel with digits',
      kyma({ channel: 'regular', modules: [{ name: 'keda', channel: 'fast1' }] }),
      'spec.modules[0].channel',
    ],
    [
      'Kyma unknown customResourcePolicy',
      kyma({ channel: 'regular', modules: [{ name: 'keda', customResourcePolicy: 'Delete' }] }),
      'customResourcePolicy',
    ],
    [
      'Kyma module listed twice',
      kyma({ channel: 'regular', modules: [{ name: 'keda' }, { name: 'keda' }] }),
      'Duplicate value',
    ],
    ['Kyma module without name', kyma({ channel: 'regular', modules: [{ channel: 'fast' }] }), 'name'],
    [
      'Kyma module name with a space',
      kyma({ channel: 'regular', modules: [{ name: 'my module' }] }),
      'spec.modules[0].name',
    ],
    [
      'Kyma module name with upper case',
      kyma({ channel: 'regular', modules: [{ name: 'Keda' }] }),
      'spec.modules[0].name',
    ],
    [
      'Kyma module name ending in a dash',
      kyma({ channel: 'regular', modules: [{ name: 'keda-' }] }),
      'spec.modules[0].name',
    ],
    [
      'ModuleTemplate moduleName with underscore',
      template({ moduleName: 'template_operator', version: '1.0.0' }),
      'spec.moduleName',
    ],
    [
      'ModuleTemplate moduleName segment shorter than 3',
      template({ moduleName: 'ab-operator', version: '1.0.0' }),
      'spec.moduleName',
    ],
    ['ModuleTemplate version without patch', template({ moduleName: 'keda', version: '1.0' }), 'spec.version'],
    ['ModuleTemplate version with leading zero', template({ moduleName: 'keda', version: '01.0.0' }), 'spec.version'],
    [
      'ModuleTemplate version with build metadata',
      template({ moduleName: 'keda', version: '1.0.0+build' }),
      'spec.version',
    ],
    [
      'ModuleTemplate version longer than 32',
      template({ moduleName: 'keda', version: `1.0.0-${'a'.repeat(30)}` }),
      'spec.version',
    ],
    [
      'ModuleTemplate channel shorter than 3',
      template({ moduleName: 'keda', version: '1.0.0', channel: 'ab' }),
      'spec.channel',
    ],
    [
      'ModuleReleaseMeta with channels and mandatory',
      releaseMeta({
        ...mrmBase,
        channels: [{ channel: 'regular', version: '1.0.0' }],
        mandatory: { version: '1.0.0' },
      }),
      'exactly one of channels or mandatory',
    ],
    [
      'ModuleReleaseMeta with neither channels nor mandatory',
      releaseMeta(mrmBase),
      'exactly one of channels or mandatory',
    ],
    [
      'ModuleReleaseMeta component name without domain',
      releaseMeta({ ...mrmBase, ocmComponentName: 'template-operator', channels: [] }),
      'spec.ocmComponentName',
    ],
    [
      'ModuleReleaseMeta channel listed twice',
      releaseMeta({
        ...mrmBase,
        channels: [
          { channel: 'fast', version: '1.0.0' },
          { channel: 'fast', version: '1.0.1' },
        ],
      }),
      'Duplicate value',
    ],
    [
      'ModuleReleaseMeta channel version with v prefix',
      releaseMeta({ ...mrmBase, channels: [{ channel: 'fast', version: 'v1.0.0' }] }),
      'spec.channels[0].version',
    ],
    [
      'ModuleReleaseMeta mandatory version not semver',
      releaseMeta({ ...mrmBase, mandatory: { version: 'latest' } }),
      'spec.mandatory.version',
    ],
    [
      'ModuleReleaseMeta without ocmComponentName',
      releaseMeta({ moduleName: 'keda', channels: [] }),
      'spec.ocmComponentName: Required value',
    ],
    [
      'Manifest unknown customResourcePolicy',
      manifest({ install, customResourcePolicy: 'Sometimes' }),
      'spec.customResourcePolicy',
    ],
    [
      'Manifest without install or installs',
      manifest({ version: '1.0.0' }),
      'spec.install (raw-manifest layer) or spec.installs (Helm charts) is required',
    ],
    [
      'Manifest with an empty installs list',
      manifest({ version: '1.0.0', installs: [] }),
      'spec.install (raw-manifest layer) or spec.installs (Helm charts) is required',
    ],
    [
      'Manifest chart install without source',
      manifest({ installs: [{ name: 'redis' }] }),
      'spec.installs[0].source: Required value',
    ],
  ])('rejects %s', async (_, example, message) => {
    const error = await dryRunCreate(example).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string },
    );
    expect(error?.code).toBe(422);
    expect(error?.message).toContain(message);
  });
});
