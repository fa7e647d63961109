import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseModuleObjects } from '../../../shared/render/render.ts';
import { packageModule } from '../package.ts';
import { parseRequest } from './args.ts';
import { moduleTemplate, publishedYaml, releaseMeta, type PublishedModule } from './render.ts';

const CRD = (scope: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: samples.operator.kyma-project.io}
spec:
  group: operator.kyma-project.io
  scope: ${scope}
  names: {kind: Sample, plural: samples}
  versions: [{name: v1alpha1, served: true, storage: true}]
`;
const DEFAULT_CR = {
  apiVersion: 'operator.kyma-project.io/v1alpha1',
  kind: 'Sample',
  metadata: { name: 'default' },
  spec: { replicas: 1 },
};
const FLAGS = [
  '--name',
  'template-operator',
  '--version',
  '1.2.3-rc.1',
  '--manifest',
  'm.yaml',
  '--registry',
  'localhost:5000',
];

function published(extraFlags: string[] = [], scope = 'Namespaced'): PublishedModule {
  const request = parseRequest([...FLAGS, ...extraFlags]);
  if (request === 'help') throw new Error('help');
  const pkg = packageModule({
    componentName: request.componentName,
    version: request.version,
    rawManifest: CRD(scope),
    registryBaseUrl: 'localhost:5000',
    defaultCr: DEFAULT_CR,
  });
  return { request, pkg, objects: parseModuleObjects(CRD(scope)), defaultCr: DEFAULT_CR };
}

describe('moduleTemplate', () => {
  it('is <module>-<version> with the module-name label, the default CR as data and the OCM descriptor', () => {
    const template = moduleTemplate(published());
    expect(template).toEqual({
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'ModuleTemplate',
      metadata: {
        name: 'template-operator-1.2.3-rc.1',
        namespace: 'kcp-system',
        labels: { 'operator.kyma-project.io/module-name': 'template-operator' },
      },
      spec: {
        moduleName: 'template-operator',
        version: '1.2.3-rc.1',
        data: DEFAULT_CR,
        descriptor: expect.any(Object),
      },
    });
    expect(template.spec?.descriptor).toMatchObject({
      meta: { schemaVersion: 'v2' },
      component: {
        name: 'kyma-project.io/module/template-operator',
        version: '1.2.3-rc.1',
        resources: [{ name: 'raw-manifest' }, { name: 'default-cr' }],
      },
    });
  });

  it('carries visibility labels, requiresDowntime and the namespace asked for', () => {
    const template = moduleTemplate(
      published(['--beta', '--internal', '--requires-downtime', '--namespace', 'modules']),
    );
    expect(template.metadata).toMatchObject({
      namespace: 'modules',
      labels: { 'operator.kyma-project.io/beta': 'true', 'operator.kyma-project.io/internal': 'true' },
    });
    expect(template.spec?.requiresDowntime).toBe(true);
  });

  it('is annotated cluster-scoped when the manifest makes the default CR kind cluster-scoped', () => {
    expect(moduleTemplate(published([], 'Cluster')).metadata.annotations).toEqual({
      'operator.kyma-project.io/is-cluster-scoped': 'true',
    });
    expect(moduleTemplate(published([], 'Namespaced')).metadata.annotations).toBeUndefined();
  });

  it('has no data without a default CR', () => {
    expect(moduleTemplate({ ...published(), defaultCr: undefined }).spec).not.toHaveProperty('data');
  });
});

describe('releaseMeta', () => {
  it('is named after the module and lists the requested channels', () => {
    const { request } = published([
      '--channel',
      'fast',
      '--channel',
      'regular=1.2.2',
      '--component-name',
      'example.com/modules/tpl',
    ]);
    expect(releaseMeta(request)).toEqual({
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'ModuleReleaseMeta',
      metadata: { name: 'template-operator', namespace: 'kcp-system' },
      spec: {
        moduleName: 'template-operator',
        ocmComponentName: 'example.com/modules/tpl',
        channels: [
          { channel: 'fast', version: '1.2.3-rc.1' },
          { channel: 'regular', version: '1.2.2' },
        ],
      },
    });
  });
});

describe('publishedYaml', () => {
  it('is two YAML documents: the ModuleTemplate, then the ModuleReleaseMeta', () => {
    const module = published();
    const docs = parseAllDocuments(publishedYaml(module)).map((d) => d.toJS() as unknown);
    expect(docs).toEqual([moduleTemplate(module), releaseMeta(module.request)]);
  });
});
